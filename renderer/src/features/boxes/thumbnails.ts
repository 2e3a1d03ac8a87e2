import { useEffect, useState } from 'react';

const WIDTH = 96;
const HEIGHT = 72;
const cache = new Map<string, Promise<string>>();

/**
 * A small copy of an item's image as a blob: URL: fetched on its own, decoded with `img.decode()` and
 * scaled by `createImageBitmap`, both off the page's main thread, then kept per item while the
 * full image is let go, so the queue never holds or paints full-size images, however many.
 */
async function make(load: () => Promise<string>): Promise<string> {
  const img = new Image();
  img.src = await load();
  await img.decode();
  const scale = Math.min(1, WIDTH / img.naturalWidth, HEIGHT / img.naturalHeight);
  const bitmap = await createImageBitmap(img, { resizeWidth: Math.max(1, Math.round(img.naturalWidth * scale)), resizeHeight: Math.max(1, Math.round(img.naturalHeight * scale)), resizeQuality: 'medium' });
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  canvas.getContext('2d')!.drawImage(bitmap, 0, 0);
  bitmap.close();
  return URL.createObjectURL(await canvas.convertToBlob({ type: 'image/png' }));
}

/** The thumbnail of the image `key` names (loaded with `load`), or null while it is made (or when this browser cannot make one). */
export function useThumbnail(key: string, load: () => Promise<string>): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (typeof OffscreenCanvas === 'undefined' || typeof createImageBitmap === 'undefined') return;
    let live = true;
    let made = cache.get(key);
    if (!made) {
      made = make(load);
      cache.set(key, made);
      made.catch(() => cache.delete(key));
    }
    made.then((u) => live && setUrl(u)).catch(() => undefined);
    return () => {
      live = false;
    };
    // `load` follows from `key`, so the key alone says when to load again.
  }, [key]);
  return url;
}
