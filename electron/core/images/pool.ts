import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Piscina } from 'piscina';
import { GatewayError } from '../errors';
import { MAX_IMAGE_PIXELS } from './limits';
import type { Foreground, Upright } from './pixels.mjs';

export type { Foreground, Upright } from './pixels.mjs';

export interface ImagePoolOptions {
  /** Worker threads at most; by default one fewer than the cores (at least one), at most two. */
  threads?: number;
  /** Tasks waiting beyond the busy threads before new ones are refused (503). */
  maxQueue?: number;
  /** A worker idle this long ends, and the memory its decodes took goes back to the system. */
  idleMs?: number;
}

/**
 * Decoding, EXIF rotation, re-encoding and the simulated fleet's box statistics, on worker threads:
 * a decode of a large image takes seconds of CPU, which on the server's own thread would stall every
 * other request. The pool is small (the decodes it runs at once bound its memory: each image is at
 * most MAX_IMAGE_PIXELS, checked from its header before it gets here) and its queue bounded.
 */
export class ImagePool {
  /** Made with the first image (piscina is loaded then: a server that is sent no image never holds it). */
  private pool: Promise<Piscina> | null = null;
  private readonly threads: number;

  constructor(private readonly options: ImagePoolOptions = {}) {
    this.threads = options.threads ?? Math.max(1, Math.min(2, availableParallelism() - 1));
  }

  private started(): Promise<Piscina> {
    return (this.pool ??= import('piscina').then(
      ({ Piscina }) =>
        new Piscina({
          // Beside the module in the source tree, and beside each bundle (scripts/bundle.mjs).
          filename: fileURLToPath(new URL('./image-worker.mjs', import.meta.url)),
          minThreads: 0,
          maxThreads: this.threads,
          maxQueue: this.options.maxQueue ?? 64,
          idleTimeout: this.options.idleMs ?? 30_000,
        }),
    ));
  }

  /** The JPEG turned upright (EXIF orientation 2-8 applied); a JPEG that cannot be decoded is a 400 naming `where`. */
  async upright(image: { base64: string }, where: string): Promise<Upright> {
    try {
      return (await this.run({ kind: 'upright', base64: image.base64 })) as Upright;
    } catch (error) {
      if (error instanceof GatewayError) throw error;
      throw new GatewayError('bad_request', `${where}: the JPEG image could not be decoded (${(error as Error).message})`);
    }
  }

  /** The simulated fleet's box from image statistics; null when the image cannot be decoded or nothing stands out. */
  async foreground(image: { base64: string }): Promise<Foreground | null> {
    return (await this.run({ kind: 'foreground', base64: image.base64 })) as Foreground | null;
  }

  async close(): Promise<void> {
    await (await this.pool)?.destroy();
  }

  private async run(task: Record<string, unknown>): Promise<unknown> {
    const pool = await this.started();
    if (pool.queueSize >= pool.options.maxQueue)
      throw new GatewayError('unavailable', 'Too many images are being prepared at once; try again in a few seconds', { headers: { 'retry-after': '5' } });
    // The header was checked against the limit already; sharp holds to it as well.
    return pool.run({ ...task, maxPixels: MAX_IMAGE_PIXELS });
  }
}
