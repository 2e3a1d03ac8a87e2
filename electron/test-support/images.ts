import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** RGBA pixels: a light background with one dark rectangle. */
function pixels(width: number, height: number, rect: Rect): Buffer {
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const inside = x >= rect.x && x < rect.x + rect.w && y >= rect.y && y < rect.y + rect.h;
      const i = (y * width + x) * 4;
      data[i] = inside ? 30 : 235;
      data[i + 1] = inside ? 60 : 230;
      data[i + 2] = inside ? 160 : 220;
      data[i + 3] = 255;
    }
  }
  return data;
}

export function pngWithRect(width: number, height: number, rect: Rect): string {
  const png = new PNG({ width, height });
  pixels(width, height, rect).copy(png.data);
  return `data:image/png;base64,${PNG.sync.write(png).toString('base64')}`;
}

/** A JPEG whose stored pixels are shown rotated, as its EXIF orientation tag says (1-8). */
export function jpegWithOrientation(width: number, height: number, rect: Rect, orientation: number): string {
  const encoded = Buffer.from(jpeg.encode({ data: pixels(width, height, rect), width, height }, 95).data);
  const tiff = Buffer.from([0x4d, 0x4d, 0x00, 0x2a, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, orientation, 0, 0, 0, 0, 0, 0]);
  const payload = Buffer.concat([Buffer.from('Exif\0\0', 'binary'), tiff]);
  const app1 = Buffer.concat([Buffer.from([0xff, 0xe1, (payload.length + 2) >> 8, (payload.length + 2) & 0xff]), payload]);
  const withExif = Buffer.concat([encoded.subarray(0, 2), app1, encoded.subarray(2)]);
  return `data:image/jpeg;base64,${withExif.toString('base64')}`;
}

/** A PNG with several dark rectangles on the light background (one object each). */
export function pngWithRects(width: number, height: number, rects: readonly Rect[]): string {
  const png = new PNG({ width, height });
  const layers = rects.map((r) => pixels(width, height, r));
  for (let i = 0; i < width * height * 4; i += 4) {
    const dark = layers.find((l) => l[i] === 30) ?? layers[0]!;
    dark.copy(png.data, i, i, i + 4);
  }
  return `data:image/png;base64,${PNG.sync.write(png).toString('base64')}`;
}
