import type * as ImageSize from 'image-size';
import { GatewayError } from '../errors';

/** image-size, loaded with the first image read (an idle server holds none). */
import { imageSize } from './image-size';

/**
 * The most pixels an image may have (width × height, as its header says): 40 megapixels, above
 * every provider's own limit and every camera's photo. Checked from the header before anything
 * decodes the image, so that what a decode may allocate is bounded whatever arrives (an RGBA
 * decode of the largest accepted image is 160 MB).
 */
export const MAX_IMAGE_PIXELS = 40_000_000;

/** An image's size from its header, and its EXIF orientation (1 when it has none). */
export interface ImageHeader {
  width: number;
  height: number;
  orientation: number;
}

/** The first bytes of each image format, to tell what an image is whatever it is called. */
const SIGNATURES: { mediaType: string; name: string; matches: (head: Buffer) => boolean }[] = [
  { mediaType: 'image/png', name: 'PNG', matches: (h) => h[0] === 0x89 && h.subarray(1, 4).toString('latin1') === 'PNG' },
  { mediaType: 'image/jpeg', name: 'JPEG', matches: (h) => h[0] === 0xff && h[1] === 0xd8 && h[2] === 0xff },
  { mediaType: 'image/gif', name: 'GIF', matches: (h) => h.subarray(0, 4).toString('latin1') === 'GIF8' },
  { mediaType: 'image/webp', name: 'WebP', matches: (h) => h.subarray(0, 4).toString('latin1') === 'RIFF' && h.subarray(8, 12).toString('latin1') === 'WEBP' },
];

const nameOf = (mediaType: string): string => SIGNATURES.find((s) => s.mediaType === mediaType)?.name ?? mediaType;

/**
 * Checks an image before anything else reads it: its bytes are the format it is declared as, its
 * header can be read, and it has at most MAX_IMAGE_PIXELS. Each refusal is a 400 naming `where`.
 */
export function checkImage(mediaType: string, base64: string, where: string): ImageHeader {
  const head = Buffer.from(base64.slice(0, 16), 'base64');
  const actual = SIGNATURES.find((s) => s.matches(head));
  if (!actual) throw new GatewayError('bad_request', `${where}: the data is not a PNG, JPEG, GIF or WebP image`);
  if (actual.mediaType !== mediaType)
    throw new GatewayError(
      'bad_request',
      `${where}: the data is a ${actual.name} image, not ${nameOf(mediaType)} as it is declared; declare it as ${actual.mediaType}`,
    );
  let size: ReturnType<typeof ImageSize.imageSize>;
  try {
    size = headerSize(base64);
  } catch {
    throw new GatewayError('bad_request', `${where}: the ${actual.name} image's header could not be read`);
  }
  if (size.width * size.height > MAX_IMAGE_PIXELS) {
    const megapixels = Math.round((size.width * size.height) / 1e5) / 10;
    throw new GatewayError(
      'bad_request',
      `${where}: the image is ${size.width} × ${size.height} pixels (${megapixels} megapixels); at most ${MAX_IMAGE_PIXELS / 1e6} megapixels are accepted`,
    );
  }
  return { width: size.width, height: size.height, orientation: mediaType === 'image/jpeg' ? (size.orientation ?? 1) : 1 };
}

/** 128 KiB of bytes, in whole base64 quads: room for a JPEG's EXIF block and the frame header after it. */
const HEADER_PREFIX_CHARS = 174_760;

/**
 * The image's size from the first bytes alone when they hold its header (a JPEG's frame header
 * follows its EXIF and colour profile blocks), else from all of them: decoding a large image's whole
 * base64 costs milliseconds of the server's thread, its header a fraction of that. A header cut
 * short makes image-size throw, never answer a wrong size.
 */
function headerSize(base64: string): ReturnType<typeof ImageSize.imageSize> {
  if (base64.length > HEADER_PREFIX_CHARS) {
    try {
      return imageSize(Buffer.from(base64.slice(0, HEADER_PREFIX_CHARS), 'base64'));
    } catch {
      // The header lies further in (a large colour profile): read it all.
    }
  }
  return imageSize(Buffer.from(base64, 'base64'));
}

/** The size people see: EXIF orientations 5-8 turn the image a quarter. */
export const uprightSize = (header: ImageHeader): { width: number; height: number } =>
  header.orientation >= 5 ? { width: header.height, height: header.width } : { width: header.width, height: header.height };
