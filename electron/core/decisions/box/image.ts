import { imageSize } from 'image-size';
import jpeg from 'jpeg-js';
import { GatewayError } from '../../errors';

export interface PreparedImage {
  mediaType: string;
  base64: string;
  /** Size as displayed, after the EXIF orientation is applied. */
  width: number;
  height: number;
}

/**
 * Reads an image's size and applies its EXIF orientation (JPEG), so the model sees the image
 * upright and the box fractions refer to the image as people see it.
 */
export function prepareImage(mediaType: string, base64: string, where: string): PreparedImage {
  const bytes = Buffer.from(base64, 'base64');
  let size: ReturnType<typeof imageSize>;
  try {
    size = imageSize(bytes);
  } catch {
    throw new GatewayError('bad_request', `${where}: the image data could not be read as ${mediaType}`);
  }
  const orientation = size.orientation ?? 1;
  if (mediaType !== 'image/jpeg' || orientation === 1) return { mediaType, base64, width: size.width, height: size.height };
  const decoded = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: true, maxMemoryUsageInMB: 512 });
  const upright = orient(decoded.data, decoded.width, decoded.height, orientation);
  const encoded = jpeg.encode({ data: upright.data, width: upright.width, height: upright.height }, 92);
  return { mediaType, base64: Buffer.from(encoded.data).toString('base64'), width: upright.width, height: upright.height };
}

/** Applies EXIF orientation 2-8 to RGBA pixels. */
export function orient(data: Uint8Array, width: number, height: number, orientation: number): { data: Uint8Array; width: number; height: number } {
  const swap = orientation >= 5;
  const outW = swap ? height : width;
  const outH = swap ? width : height;
  const out = new Uint8Array(outW * outH * 4);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      let nx = x;
      let ny = y;
      switch (orientation) {
        case 2:
          nx = width - 1 - x;
          break;
        case 3:
          nx = width - 1 - x;
          ny = height - 1 - y;
          break;
        case 4:
          ny = height - 1 - y;
          break;
        case 5:
          nx = y;
          ny = x;
          break;
        case 6:
          nx = height - 1 - y;
          ny = x;
          break;
        case 7:
          nx = height - 1 - y;
          ny = width - 1 - x;
          break;
        case 8:
          nx = y;
          ny = width - 1 - x;
          break;
      }
      const from = (y * width + x) * 4;
      const to = (ny * outW + nx) * 4;
      out[to] = data[from]!;
      out[to + 1] = data[from + 1]!;
      out[to + 2] = data[from + 2]!;
      out[to + 3] = data[from + 3]!;
    }
  }
  return { data: out, width: outW, height: outH };
}
