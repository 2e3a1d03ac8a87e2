import { useEffect, useState } from 'react';
import { cachedThumbnail, keepThumbnail } from './thumbnail-cache';
import { thumbnailSize } from './thumbnail-math';

const urls = new Map<string, Promise<string>>();
let worker: Worker | null | undefined;
let nextId = 0;
const waiting = new Map<number, { resolve: (b: Blob) => void; reject: (e: Error) => void }>();

/** The thumbnail worker, started once; null where workers with OffscreenCanvas are not available. */
function thumbnailWorker(): Worker | null {
  if (worker !== undefined) return worker;
  try {
    worker = new Worker(new URL('./thumbnail-worker.ts', import.meta.url), { type: 'module' });
    worker.onerror = () => {
      // The worker could not load (a host that refuses module workers): the page makes them instead.
      worker = null;
      for (const w of waiting.values()) w.reject(new Error('the thumbnail worker stopped'));
      waiting.clear();
    };
    worker.onmessage = (e: MessageEvent<{ id: number; blob?: Blob; error?: string }>) => {
      const w = waiting.get(e.data.id);
      waiting.delete(e.data.id);
      if (e.data.blob) w?.resolve(e.data.blob);
      else w?.reject(new Error(e.data.error ?? 'no thumbnail'));
    };
  } catch {
    worker = null;
  }
  return worker;
}

/** Where no worker can start: decoded by `img.decode()` and scaled by createImageBitmap, off the main thread still. */
async function inPage(dataUrl: string): Promise<Blob> {
  const img = new Image();
  img.src = dataUrl;
  await img.decode();
  const size = thumbnailSize(img.naturalWidth, img.naturalHeight);
  const bitmap = await createImageBitmap(img, { resizeWidth: size.width, resizeHeight: size.height, resizeQuality: 'medium' });
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  canvas.getContext('2d')!.drawImage(bitmap, 0, 0);
  bitmap.close();
  return canvas.convertToBlob({ type: 'image/png' });
}

function inWorker(dataUrl: string): Promise<Blob> {
  const w = thumbnailWorker();
  if (!w) return inPage(dataUrl);
  const id = (nextId += 1);
  const made = new Promise<Blob>((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    w.postMessage({ id, dataUrl });
  });
  return made.catch(() => inPage(dataUrl));
}

/**
 * A small copy of an item's image as a blob: URL: from the thumbnail cache when it was made before
 * (in this session or an earlier one), else fetched on its own and made in the thumbnail worker
 * (decoding, scaling and encoding off the page's main thread), then kept. The queue never holds or
 * paints full-size images, however many.
 */
async function make(key: string, load: () => Promise<string>): Promise<string> {
  const cached = await cachedThumbnail(key);
  if (cached) return URL.createObjectURL(cached);
  const blob = await inWorker(await load());
  void keepThumbnail(key, blob);
  return URL.createObjectURL(blob);
}

/** The thumbnail of the image `key` names (loaded with `load`), or null while it is made (or when this browser cannot make one). */
export function useThumbnail(key: string, load: () => Promise<string>): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (typeof OffscreenCanvas === 'undefined' || typeof createImageBitmap === 'undefined') return;
    let live = true;
    let made = urls.get(key);
    if (!made) {
      made = make(key, load);
      urls.set(key, made);
      made.catch(() => urls.delete(key));
    }
    made.then((u) => live && setUrl(u)).catch(() => undefined);
    return () => {
      live = false;
    };
    // `load` follows from `key`, so the key alone says when to load again.
  }, [key]);
  return url;
}
