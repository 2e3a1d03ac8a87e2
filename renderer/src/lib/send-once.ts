/**
 * Runs `send` unless the one before it is still going: held in a ref, set in the click's own event,
 * so a double click sends once (React shows `isPending` only a render later, after the second click).
 */
export function once(held: { current: boolean }, send: () => Promise<unknown>): void {
  if (held.current) return;
  held.current = true;
  void send()
    .catch(() => undefined) // shown from the mutation's own error
    .finally(() => {
      held.current = false;
    });
}

/** Asks `question` first, and sends only when it is accepted; held as `once` holds. */
export function onceConfirmed(held: { current: boolean }, question: string, send: () => Promise<unknown>): void {
  once(held, async () => {
    if (window.confirm(question)) await send();
  });
}

/**
 * A click handler that acts on a single click and on the first click of a double click, never on
 * its second: that one may land on another button the first click's answer put in the same place
 * (Resume becomes Pause). Keyboard activation (detail 0) acts.
 */
export function firstClick(act: () => void): (event: { detail: number }) => void {
  return (event) => {
    if (event.detail > 1) return;
    act();
  };
}

/** A click handler that sends once (`once`) and never on a double click's second click (`firstClick`). */
export function clickOnce(held: { current: boolean }, send: () => Promise<unknown>): (event: { detail: number }) => void {
  return firstClick(() => once(held, send));
}
