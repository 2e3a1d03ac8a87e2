/**
 * Makes thumbnails away from the page: decodes an image's bytes, scales it with createImageBitmap
 * and encodes a small PNG on an OffscreenCanvas, so neither decoding nor scaling a large image
 * takes the page's main thread.
 */
import { decodeDataUrl, thumbnailSize } from './thumbnail-math';

interface Request {
  id: number;
  dataUrl: string;
}

const scope = self as unknown as { onmessage: ((e: MessageEvent<Request>) => void) | null; postMessage: (message: unknown) => void };

async function make(dataUrl: string): Promise<Blob> {
  const { type, bytes } = decodeDataUrl(dataUrl);
  const full = await createImageBitmap(new Blob([bytes], { type }));
  const size = thumbnailSize(full.width, full.height);
  const bitmap = await createImageBitmap(full, { resizeWidth: size.width, resizeHeight: size.height, resizeQuality: 'medium' });
  full.close();
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  canvas.getContext('2d')!.drawImage(bitmap, 0, 0);
  bitmap.close();
  return canvas.convertToBlob({ type: 'image/png' });
}

scope.onmessage = (e) => {
  make(e.data.dataUrl).then(
    (blob) => scope.postMessage({ id: e.data.id, blob }),
    (error: unknown) => scope.postMessage({ id: e.data.id, error: String(error) }),
  );
};
