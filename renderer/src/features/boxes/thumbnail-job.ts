/**
 * One thumbnail job of the worker, with the browser's image functions passed in, so the steps
 * (decode the data: URL's bytes, scale while decoding, draw, encode a PNG, free the bitmaps, answer
 * with the job's id whether it worked or not) are tested without a browser.
 */
import { decodeDataUrl, thumbnailSize } from './thumbnail-math';

export interface ThumbnailRequest {
  id: number;
  dataUrl: string;
}

export type ThumbnailReply = { id: number; blob: Blob } | { id: number; error: string };

interface Bitmap {
  width: number;
  height: number;
  close(): void;
}

/** What the job needs from the browser: createImageBitmap and OffscreenCanvas, as a worker has them. */
export interface ImageApi<B extends Bitmap> {
  createImageBitmap(source: Blob | B, options?: { resizeWidth: number; resizeHeight: number; resizeQuality: 'medium' }): Promise<B>;
  canvas(width: number, height: number): { drawImage(bitmap: B): void; convertToBlob(options: { type: 'image/png' }): Promise<Blob> };
}

export async function makeThumbnail<B extends Bitmap>(dataUrl: string, api: ImageApi<B>): Promise<Blob> {
  const { type, bytes } = decodeDataUrl(dataUrl);
  const full = await api.createImageBitmap(new Blob([bytes], { type }));
  let bitmap: B;
  try {
    const size = thumbnailSize(full.width, full.height);
    bitmap = await api.createImageBitmap(full, { resizeWidth: size.width, resizeHeight: size.height, resizeQuality: 'medium' });
  } finally {
    full.close();
  }
  try {
    const canvas = api.canvas(bitmap.width, bitmap.height);
    canvas.drawImage(bitmap);
    return await canvas.convertToBlob({ type: 'image/png' });
  } finally {
    bitmap.close();
  }
}

/** Answers one request: the PNG, or why there is none; always with the request's id. */
export async function answer<B extends Bitmap>(request: ThumbnailRequest, api: ImageApi<B>): Promise<ThumbnailReply> {
  try {
    return { id: request.id, blob: await makeThumbnail(request.dataUrl, api) };
  } catch (error) {
    return { id: request.id, error: String(error) };
  }
}
