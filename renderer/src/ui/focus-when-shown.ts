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
  const look = () => {
    const now = document.activeElement;
    if (now !== from && now !== document.body && now !== null) return;
    const target = find();
    if (target) {
      if (!target.hasAttribute('tabindex') && !target.matches('a[href], button, input, select, textarea')) target.tabIndex = -1;
      target.focus();
      return;
    }
    if (performance.now() < until) requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
}
