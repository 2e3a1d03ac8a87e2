/**
 * Large request bodies take turns on the server's thread. A body of a few hundred kilobytes (an
 * image as base64) costs milliseconds to decode, parse and check; eight of them arriving together
 * would run back to back and keep every other caller (a `/healthz` probe, a small Decisions request)
 * waiting for all eight. Each large body is handed on in its own turn of the event loop instead, so
 * whatever else is ready (I/O, small requests) is served between two of them.
 */
export class Turns {
  private readonly waiting: (() => void)[] = [];
  private pumping = false;

  /** Resolves in a turn of its own: after everything taken before it, with the loop's I/O served in between. */
  take(): Promise<void> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      if (!this.pumping) this.pump();
    });
  }

  private pump(): void {
    this.pumping = true;
    setImmediate(() => {
      const next = this.waiting.shift();
      if (!next) {
        this.pumping = false;
        return;
      }
      // The next turn is queued from inside this one, so Node runs it on the loop's next pass, after
      // the poll phase; the work resolved here runs in this callback's microtasks.
      this.pump();
      next();
    });
  }
}

/** Bodies at least this large take a turn (smaller ones cost too little to hold anyone up). */
export const LARGE_BODY_BYTES = 64 * 1024;

/** The server's one queue of large bodies. */
export const largeBodies = new Turns();
