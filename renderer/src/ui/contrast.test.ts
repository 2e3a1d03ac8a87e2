// eslint-disable-next-line no-restricted-imports -- a test run by Node reads the style sheets the renderer ships, as files
import { readFileSync } from 'node:fs';
import Color from 'colorjs.io';
import { describe, expect, it } from 'vitest';

const css = readFileSync(new URL('./styles.css', import.meta.url), 'utf8');
const evaluations = readFileSync(new URL('../features/evaluations/evaluations.css', import.meta.url), 'utf8');

/**
 * The themes' colours against WCAG 2.1 AA, worked out from the style sheet itself: text 4.5:1
 * (1.4.3); the outlines of fields and buttons, the focus ring and the chart marks that carry
 * meaning 3:1 against what they sit on (1.4.11). axe checks the text it can see on a screen; this
 * checks every pair, including those axe leaves for review (shaded cells, one-character text).
 */

function block(selector: string): Record<string, string> {
  const start = css.indexOf(`${selector} {`);
  const body = css.slice(start, css.indexOf('}', start));
  return Object.fromEntries([...body.matchAll(/--([\w-]+):\s*(#[0-9a-fA-F]{3,8})/g)].map((m) => [m[1]!, m[2]!]));
}

const light = block(':root');
const THEMES = { light, dark: { ...light, ...block(":root[data-theme='dark']") } };
const ratio = (a: string, b: string) => new Color(a).contrast(new Color(b), 'WCAG21');
/** `share` of `colour` over `base`, as CSS color-mix(in srgb, …) mixes them. */
const mix = (colour: string, share: number, base: string) => new Color(base).mix(new Color(colour), share, { space: 'srgb' }).toString({ format: 'hex' });

describe.each(Object.entries(THEMES))('the %s theme', (_name, v) => {
  const surfaces = ['surface', 'surface-2', 'bg'] as const;

  it('has text of 4.5:1 or more on every surface', () => {
    for (const text of ['text', 'muted', 'accent', 'ok', 'warn', 'error'])
      for (const surface of surfaces) expect(ratio(v[text]!, v[surface]!), `${text} on ${surface}`).toBeGreaterThanOrEqual(4.5);
    // Notices and badges: their own text on their own fill, and a button's text on the accent.
    expect(ratio(v['ok']!, v['ok-bg']!)).toBeGreaterThanOrEqual(4.5);
    expect(ratio(v['warn']!, v['warn-bg']!)).toBeGreaterThanOrEqual(4.5);
    expect(ratio(v['error']!, v['error-bg']!)).toBeGreaterThanOrEqual(4.5);
    expect(ratio(v['text']!, v['warn-bg']!)).toBeGreaterThanOrEqual(4.5);
    expect(ratio(v['accent-text']!, v['accent']!)).toBeGreaterThanOrEqual(4.5);
  });

  it('outlines fields and buttons, and rings focus, at 3:1 or more', () => {
    for (const surface of surfaces) {
      expect(ratio(v['control-border']!, v[surface]!), `control border on ${surface}`).toBeGreaterThanOrEqual(3);
      expect(ratio(v['focus']!, v[surface]!), `focus ring on ${surface}`).toBeGreaterThanOrEqual(3);
    }
  });

  it('draws chart series and reference lines at 3:1 or more on the chart', () => {
    for (const name of ['series-1', 'series-2', 'series-3', 'series-4', 'series-5', 'series-6', 'series-7', 'chart-neutral'])
      expect(ratio(v[name]!, v['surface']!), name).toBeGreaterThanOrEqual(3);
  });

  it('keeps a confusion cell’s number at 4.5:1 however strongly the cell is shaded', () => {
    const [, base, perShare] = /calc\((\d+)% \+ ([\d.]+) \* var\(--share/.exec(evaluations)!;
    const darkest = (Number(base) + Number(perShare) * 100) / 100;
    expect(darkest).toBeLessThanOrEqual(1);
    for (const fill of ['ok', 'accent'])
      for (const share of [0, 0.25, 0.5, 0.75, 1]) {
        const shade = (Number(base) + Number(perShare) * share * 100) / 100;
        expect(ratio(v['text']!, mix(v[fill]!, shade, v['surface']!)), `text on ${fill} at ${share}`).toBeGreaterThanOrEqual(4.5);
      }
  });
});
