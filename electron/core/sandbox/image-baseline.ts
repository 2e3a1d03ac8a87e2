import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';

/**
 * The sandbox's box baseline, from simple image statistics: the background is the mean colour
 * of the four corners, and the box encloses every pixel that differs from it clearly. No model.
 */
export function foregroundBox(dataUrl: string): { top: number; left: number; bottom: number; right: number; width: number; height: number } | null {
  const match = /^data:(image\/(?:png|jpeg));base64,(.+)$/.exec(dataUrl);
  if (!match) return null;
  const bytes = Buffer.from(match[2]!, 'base64');
  let width: number;
  let height: number;
  let data: Uint8Array;
  try {
    if (match[1] === 'image/png') {
      const png = PNG.sync.read(bytes);
      ({ width, height } = png);
      data = png.data;
    } else {
      const decoded = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: true });
      ({ width, height } = decoded);
      data = decoded.data;
    }
  } catch {
    return null;
  }
  const at = (x: number, y: number) => (y * width + x) * 4;
  const corners = [at(0, 0), at(width - 1, 0), at(0, height - 1), at(width - 1, height - 1)];
  const bg = [0, 1, 2].map((c) => corners.reduce((s, i) => s + data[i + c]!, 0) / 4);
  let top = height;
  let left = width;
  let bottom = -1;
  let right = -1;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const i = at(x, y);
      const distance = Math.abs(data[i]! - bg[0]!) + Math.abs(data[i + 1]! - bg[1]!) + Math.abs(data[i + 2]! - bg[2]!);
      if (distance > 90) {
        if (y < top) top = y;
        if (y > bottom) bottom = y;
        if (x < left) left = x;
        if (x > right) right = x;
      }
    }
  }
  if (bottom < 0) return null;
  return { top, left, bottom: bottom + 1, right: right + 1, width, height };
}

/** The box in the convention the prompt asks for, as a simulated model of that family would state it. */
export function statedBox(box: NonNullable<ReturnType<typeof foregroundBox>>, prompt: string): string {
  const f = { top: box.top / box.height, left: box.left / box.width, bottom: box.bottom / box.height, right: box.right / box.width };
  const k = (v: number) => Math.round(v * 1000);
  if (prompt.includes('"box_2d"')) return JSON.stringify({ box_2d: [k(f.top), k(f.left), k(f.bottom), k(f.right)] });
  if (prompt.includes('"bbox_2d"') && prompt.includes('0-1000')) return JSON.stringify({ bbox_2d: [k(f.left), k(f.top), k(f.right), k(f.bottom)] });
  const pixels = /it is (\d+) x (\d+) pixels/.exec(prompt);
  if (prompt.includes('"bbox_2d"') && pixels) {
    const [w, h] = [Number(pixels[1]), Number(pixels[2])];
    return JSON.stringify({ bbox_2d: [Math.round(f.left * w), Math.round(f.top * h), Math.round(f.right * w), Math.round(f.bottom * h)] });
  }
  return JSON.stringify({ box: f });
}
