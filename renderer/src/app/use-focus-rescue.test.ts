// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { rescueTarget } from './use-focus-rescue';

afterEach(() => {
  document.body.innerHTML = '';
});

/** The element and its ancestors up to the body, as the rescue records them when it takes focus. */
const trailOf = (el: HTMLElement) => {
  const trail: HTMLElement[] = [];
  for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) trail.push(p);
  return trail;
};

describe('where focus goes when the focused control goes', () => {
  it('to the Tab stop of the toolbar the control was in', () => {
    document.body.innerHTML = `<main><h1>Evaluations</h1><section><h2>Run</h2>
      <div role="toolbar"><button id="pause">Pause</button><button id="cancel" tabindex="-1">Cancel</button></div></section></main>`;
    const pause = document.getElementById('pause')!;
    const trail = trailOf(pause);
    // Pause becomes Resume: the new button holds the toolbar's stop.
    pause.outerHTML = '<button id="resume" tabindex="0">Resume</button>';
    expect(rescueTarget(pause, trail)?.id).toBe('resume');
  });

  it('to the heading of the panel the control was in, made focusable', () => {
    document.body.innerHTML = `<main><h1>Settings</h1><section><h2 id="keys">API server keys</h2>
      <table><tbody><tr><td><button id="revoke">Revoke</button></td></tr></tbody></table></section></main>`;
    const revoke = document.getElementById('revoke')!;
    const trail = trailOf(revoke);
    revoke.remove();
    const target = rescueTarget(revoke, trail);
    expect(target?.id).toBe('keys');
    expect(target?.tabIndex).toBe(-1);
  });

  it('past a part of the screen that was hidden with it, to the screen heading', () => {
    document.body.innerHTML = `<main><h1 id="screen">Evaluations</h1><div id="panel"><form><button id="start">Start run</button></form></div></main>`;
    const start = document.getElementById('start')!;
    const trail = trailOf(start);
    document.getElementById('panel')!.hidden = true;
    expect(rescueTarget(start, trail)?.id).toBe('screen');
  });
});
