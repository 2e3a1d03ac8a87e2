import { EventEmitter } from 'node:events';

/** Bytes held for a body nobody reads yet before the connection is paused. */
export const HELD_BYTES = 1024 * 1024;

/** What the body needs of the call carrying it: stop reading for now, go on, or give up the call. */
export interface BodySource {
  pause(): void;
  resume(): void;
  abort(reason: Error): void;
}

/**
 * A response body as a provider's reader sees it: `data`, `end` and `error` events, `destroy()`,
 * and `text()` for a whole body. It is fed by the HTTP client's dispatch handler (`push`, `end`,
 * `fail`), which costs far less per call than a Node stream: no stream state machine, no promise
 * per chunk, no error object when a reader stops early.
 *
 * Chunks that arrive before anyone listens for `data` are held (the connection paused past
 * HELD_BYTES) and handed over on the next tick after the first `data` listener, so a reader may
 * attach its listeners in any order within one tick. An error with no `error` listener is held
 * for the next one rather than thrown.
 */
export class UpstreamBody extends EventEmitter {
  private held: Buffer[] | null = [];
  private heldBytes = 0;
  private ended = false;
  private failure: Error | null = null;
  private raised = false;
  private destroyed = false;
  private flowing = false;
  private source: BodySource | null = null;

  /** The call this body belongs to, set once its response has started. */
  attach(source: BodySource): void {
    this.source = source;
  }

  // EventEmitter's `once` adds its wrapper through `on`, so both start the flow.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- EventEmitter's own signature
  override on(event: string | symbol, listener: (...args: any[]) => void): this {
    super.on(event, listener);
    if (event === 'data' && !this.flowing) {
      this.flowing = true;
      process.nextTick(() => this.flush());
    } else if (event === 'error' && this.failure && !this.held) {
      process.nextTick(() => this.raise());
    }
    return this;
  }

  /** A chunk from the wire. */
  push(chunk: Buffer): void {
    if (this.destroyed) return;
    if (this.held) {
      this.held.push(chunk);
      this.heldBytes += chunk.length;
      if (this.heldBytes > HELD_BYTES) this.source?.pause();
      return;
    }
    this.emit('data', chunk);
  }

  /** The body is complete. */
  end(): void {
    if (this.destroyed || this.ended) return;
    this.ended = true;
    if (!this.held) this.emit('end');
  }

  /** The call failed while the body was being read. */
  fail(error: Error): void {
    if (this.destroyed || this.ended || this.failure) return;
    this.failure = error;
    if (!this.held) this.raise();
  }

  /** Stops reading: the call is aborted (its connection is not reused) and nothing more is emitted. */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.held = null;
    if (!this.ended && !this.failure) this.source?.abort(new Error('response body destroyed by its reader'));
  }

  /** The whole body as UTF-8 text. */
  text(): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      const parts: Buffer[] = [];
      this.on('data', (chunk: Buffer) => parts.push(chunk));
      this.once('end', () => resolve(Buffer.concat(parts).toString('utf8')));
      this.once('error', reject);
    });
  }

  private flush(): void {
    const held = this.held;
    if (!held || this.destroyed) return;
    this.held = null;
    if (this.heldBytes > HELD_BYTES) this.source?.resume();
    this.heldBytes = 0;
    for (const chunk of held) {
      if (this.destroyed) return;
      this.emit('data', chunk);
    }
    if (this.destroyed) return;
    if (this.ended) this.emit('end');
    else if (this.failure) this.raise();
  }

  private raise(): void {
    if (this.raised || this.destroyed || this.listenerCount('error') === 0) return;
    this.raised = true;
    this.emit('error', this.failure);
  }
}
