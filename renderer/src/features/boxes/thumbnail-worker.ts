/**
 * Makes thumbnails away from the page: decodes an image's bytes, scales it with createImageBitmap
 * and encodes a small PNG on an OffscreenCanvas, so neither decoding nor scaling a large image
 * takes the page's main thread. The steps are in thumbnail-job.ts; this file only wires them to the worker.
 */
import { answer, type ImageApi, type ThumbnailRequest } from './thumbnail-job';

const scope = self as unknown as { onmessage: ((e: MessageEvent<ThumbnailRequest>) => void) | null; postMessage: (message: unknown) => void };

const api: ImageApi<ImageBitmap> = {
  createImageBitmap: (source, options) => (options ? createImageBitmap(source, options) : createImageBitmap(source)),
  canvas: (width, height) => {
    const canvas = new OffscreenCanvas(width, height);
    const context = canvas.getContext('2d')!;
    return { drawImage: (bitmap) => context.drawImage(bitmap, 0, 0), convertToBlob: (options) => canvas.convertToBlob(options) };
  },
};

scope.onmessage = (e) => {
  void answer(e.data, api).then((reply) => scope.postMessage(reply));
};
