import { DEFAULT_BODY_MEMORY_BYTES } from './body-memory';

/** Buffers are made in whole steps of this, so bodies of about the same size use the same ones. */
const STEP_BYTES = 256 * 1024;
/** After this long without a large body, the buffers kept are let go. */
const KEPT_MS = 10_000;

/**
 * Buffers that large request bodies are read into, used again once a body has been read: an image
 * sent as base64 is megabytes, and a new buffer for each made megabytes of garbage per request,
 * which the runtime answered with a full collection about every ten requests. At most `maxBytes`
 * are kept (the body memory's default budget, which bounds what is read at once anyway), and none
 * once large bodies have stopped coming for a while.
 */
export class BodyBuffers {
  private kept: Buffer[] = [];
  private keptBytes = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly maxBytes: number = DEFAULT_BODY_MEMORY_BYTES) {}

  /** A buffer of at least `size` bytes (not zeroed), one kept if one fits without wasting half. */
  take(size: number): Buffer {
    const at = this.kept.findIndex((b) => b.length >= size && b.length <= 2 * size);
    if (at === -1) return Buffer.allocUnsafeSlow(Math.ceil(size / STEP_BYTES) * STEP_BYTES);
    const [buffer] = this.kept.splice(at, 1);
    this.keptBytes -= buffer!.length;
    return buffer!;
  }

  /** Gives back a buffer from `take` that nothing reads any more. */
  give(buffer: Buffer): void {
    if (this.keptBytes + buffer.length > this.maxBytes) return;
    this.kept.push(buffer);
    this.keptBytes += buffer.length;
    this.timer?.refresh();
    this.timer ??= setTimeout(() => this.drop(), KEPT_MS).unref();
  }

  /** Bytes kept for the next bodies (for the tests). */
  get heldBytes(): number {
    return this.keptBytes;
  }

  private drop(): void {
    this.kept = [];
    this.keptBytes = 0;
    this.timer = null;
  }
}

/** The server process's buffers for large bodies. */
export const bodyBuffers = new BodyBuffers();
