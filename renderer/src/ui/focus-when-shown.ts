/** How long an action's result may take to be drawn (its answer arriving first) before focus stays where it is. */
const WAIT_MS = 5_000;

/**
 * Moves focus to what an action made (a new run's heading, a new set in the list) once it is drawn:
 * looked for on each frame, and given up when the person has moved focus on meanwhile, or after a
 * few seconds.
 */
export function focusWhenShown(find: () => HTMLElement | null | undefined): void {
  const from = document.activeElement;
  const until = performance.now() + WAIT_MS;
  waiting += 1;
  const stop = () => {
    waiting -= 1;
  };
  const look = () => {
    const now = document.activeElement;
    if (now !== from && now !== document.body && now !== null) return stop();
    const target = find();
    if (target) {
      if (!target.hasAttribute('tabindex') && !target.matches('a[href], button, input, select, textarea')) target.tabIndex = -1;
      target.focus();
      return stop();
    }
    if (performance.now() < until) requestAnimationFrame(look);
    else stop();
  };
  requestAnimationFrame(look);
}

let waiting = 0;

/** Whether a move of focus to what an action made is still waiting for it to be drawn (nothing else should move focus meanwhile). */
export const focusAwaited = (): boolean => waiting > 0;
