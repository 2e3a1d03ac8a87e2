/** Largest thumbnail, in pixels. */
export const THUMB_WIDTH = 96;
export const THUMB_HEIGHT = 72;

/** The size of an image scaled down (never up) to fit the thumbnail, at least one pixel each way. */
export function thumbnailSize(width: number, height: number): { width: number; height: number } {
  const scale = Math.min(1, THUMB_WIDTH / width, THUMB_HEIGHT / height);
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** The bytes and type of a base64 data: URL (decoded by hand: fetching a data: URL is not allowed by the page's policy). */
export function decodeDataUrl(url: string): { type: string; bytes: Uint8Array<ArrayBuffer> } {
  const match = /^data:([^;,]+);base64,/.exec(url);
  if (!match) throw new Error('not a base64 data: URL');
  const text = atob(url.slice(match[0].length));
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i += 1) bytes[i] = text.charCodeAt(i);
  return { type: match[1]!, bytes };
}
