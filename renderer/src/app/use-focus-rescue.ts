import { useEffect } from 'react';
import { focusAwaited } from '../ui/focus-when-shown';

/** What holds a composite widget's one Tab stop: focus goes back to it, not to the widget's start. */
const COMPOSITE = '[role="toolbar"], [role="tablist"], [role="grid"], [role="radiogroup"]';
const FOCUSABLE = 'button:not(:disabled), [href], input:not(:disabled), select:not(:disabled), textarea:not(:disabled), [tabindex]:not([tabindex="-1"])';
/**
 * How long after the focused control went to look for where focus is: a screen's own move (to what
 * an action made, say) comes in the effects of the same render and wins.
 */
const SETTLE_MS = 50;

const gone = (el: HTMLElement) => !el.isConnected || (el as HTMLButtonElement).disabled === true || el.closest('[hidden]') !== null;

/** The heading of the part of the screen `el` is in (a panel, a pane, else the screen's own), made focusable. */
function headingFor(el: HTMLElement): HTMLElement | null {
  const part = el.closest('section, aside, [role="region"], main');
  const heading = part?.querySelector<HTMLElement>(':scope h1, :scope h2, :scope h3') ?? document.querySelector<HTMLElement>('main h1');
  if (heading && !heading.hasAttribute('tabindex')) heading.tabIndex = -1;
  return heading ?? null;
}

/** Where focus goes once `lost` went: the nearest part of the screen still there, as above. */
export function rescueTarget(lost: HTMLElement, trail: readonly HTMLElement[]): HTMLElement | null {
  const kept = [lost, ...trail].find((el) => !gone(el));
  if (!kept) return document.querySelector<HTMLElement>('main h1');
  const composite = kept.closest<HTMLElement>(COMPOSITE);
  const stop = composite?.querySelector<HTMLElement>('[tabindex="0"]') ?? composite?.querySelector<HTMLElement>(FOCUSABLE);
  return stop ?? headingFor(kept);
}

/**
 * When an action removes, disables or hides the control that had focus (Pause turning into
 * Resume, a row deleted, a form closed) and the screen moves focus nowhere, the browser leaves it on
 * the page's body: a screen reader loses its place, and Tab starts again from the top. This puts it
 * on the nearest part of the screen still there: the widget's Tab stop, or its panel's heading.
 */
export function useFocusRescue(): void {
  useEffect(() => {
    let last: HTMLElement | null = null;
    let trail: HTMLElement[] = [];
    let timer: ReturnType<typeof setTimeout> | null = null;
    const onFocusIn = (e: FocusEvent) => {
      if (!(e.target instanceof HTMLElement)) return;
      last = e.target;
      trail = [];
      for (let el = last.parentElement; el && el !== document.body; el = el.parentElement) trail.push(el);
    };
    const check = () => {
      timer = null;
      const active = document.activeElement;
      if (!last || (active && active !== document.body) || !gone(last) || focusAwaited()) return;
      rescueTarget(last, trail)?.focus();
    };
    const observer = new MutationObserver(() => {
      if (timer === null && last && gone(last)) timer = setTimeout(check, SETTLE_MS);
    });
    observer.observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['disabled', 'hidden'] });
    document.addEventListener('focusin', onFocusIn);
    return () => {
      observer.disconnect();
      document.removeEventListener('focusin', onFocusIn);
      if (timer !== null) clearTimeout(timer);
    };
  }, []);
}
