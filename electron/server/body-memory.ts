import { GatewayError } from '../core';

/** By default, the bytes of large request bodies one server holds at once (`--body-memory`). */
export const DEFAULT_BODY_MEMORY_BYTES = 32 * 1024 * 1024;

/** How long a large body waits for room before the caller is told to try again (503). */
export const BODY_MEMORY_WAIT_MS = 30_000;

interface Waiter {
  bytes: number;
  admit: () => void;
  timer: NodeJS.Timeout;
}

/**
 * What the server's memory holds of request bodies, bounded. A body is held whole while its request
 * is answered, and what is made from it (its text, the parsed JSON, the upstream request) several
 * times over; a few hundred images sent at once would otherwise take the process to gigabytes.
 * A large body reserves its size here before it is read and gives it back when its answer is done;
 * one that does not fit waits, unread (its bytes stay in the socket, where TCP holds the sender back),
 * in the order it came, and after `waitMs` gets a 503 with Retry-After. A body larger than the
 * whole budget is let in alone, so every body within the body limit can still be sent.
 */
export class BodyMemory {
  private held = 0;
  private readonly queue: Waiter[] = [];

  constructor(
    readonly budgetBytes: number = DEFAULT_BODY_MEMORY_BYTES,
    private readonly waitMs: number = BODY_MEMORY_WAIT_MS,
  ) {}

  /** Bytes reserved now (for the server's metrics and the tests). */
  get heldBytes(): number {
    return this.held;
  }

  /** Reserves `bytes`, waiting in turn for room; resolves to the one call that gives them back. */
  reserve(bytes: number): Promise<() => void> {
    return new Promise((resolve, reject) => {
      const admit = () => {
        this.held += bytes;
        let given = false;
        resolve(() => {
          if (given) return;
          given = true;
          this.held -= bytes;
          this.next();
        });
      };
      if (this.queue.length === 0 && this.fits(bytes)) return admit();
      const waiter: Waiter = {
        bytes,
        admit,
        timer: setTimeout(() => {
          this.queue.splice(this.queue.indexOf(waiter), 1);
          // The one it was behind may fit now that it is gone.
          this.next();
          reject(
            new GatewayError(
              'unavailable',
              'The server is holding as many large request bodies as its memory allows (--body-memory); try again in a few seconds',
              {
                headers: { 'retry-after': '5' },
              },
            ),
          );
        }, this.waitMs),
      };
      this.queue.push(waiter);
    });
  }

  private fits(bytes: number): boolean {
    return this.held === 0 || this.held + bytes <= this.budgetBytes;
  }

  /** Lets in those at the head of the queue that fit, in order: a large one is not passed by smaller ones. */
  private next(): void {
    while (this.queue.length > 0 && this.fits(this.queue[0]!.bytes)) {
      const waiter = this.queue.shift()!;
      clearTimeout(waiter.timer);
      waiter.admit();
    }
  }
}
