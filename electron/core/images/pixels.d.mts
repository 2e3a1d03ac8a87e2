/** Types of pixels.mjs (plain JavaScript, so that a worker thread loads it as it is). */
export interface Upright {
  base64: string;
  width: number;
  height: number;
}
export interface Foreground {
  top: number;
  left: number;
  bottom: number;
  right: number;
  width: number;
  height: number;
}
export function upright(image: { base64: string; maxPixels: number }): Promise<Upright>;
export function foreground(image: { base64: string; maxPixels: number }): Promise<Foreground | null>;
