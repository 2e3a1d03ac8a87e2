import type { ImageAsset, State } from '../../../shared/schemas/decisions-request';
import type { ContentPart } from '../providers/types';
import { GatewayError } from '../errors';
import { checkImage, type ImageHeader } from '../images/limits';

const DATA_URL_HEAD = /^data:(image\/(?:png|jpeg|gif|webp));base64,/;

/**
 * Whether `text` from `from` on is base64 (A-Z a-z 0-9 + /, then at most two "=", padded to a
 * multiple of four when padded at all). Checked by decoding, which runs natively: the decoder
 * skips or stops at any other character, so the bytes come out fewer than the length promises
 * (a length of 4k+1 is refused, the one case where a skipped character would not show); "-" and
 * "_", which it would read as URL-safe base64, are looked for apart. About ten times faster than
 * a regular expression over a megapixel image's text.
 */
export function isBase64(text: string, from = 0): boolean {
  let end = text.length;
  let pad = 0;
  while (pad < 2 && end > from && text.charCodeAt(end - 1) === 61 /* = */) {
    end -= 1;
    pad += 1;
  }
  const data = end - from;
  if (data === 0 || data % 4 === 1 || (pad > 0 && (data + pad) % 4 !== 0)) return false;
  if (text.indexOf('-', from) !== -1 || text.indexOf('_', from) !== -1) return false;
  // Decoded a stretch at a time into one buffer kept for it: a megapixel image's bytes are not
  // allocated on every request only to be counted and dropped.
  for (let at = from; at < end; at += CHECK_CHARS) {
    const stretch = Math.min(CHECK_CHARS, end - at);
    if (scratch.write(text.slice(at, at + stretch), 'base64') !== Math.floor((stretch * 3) / 4)) return false;
  }
  return true;
}

/** base64 characters decoded at a time by isBase64: a multiple of four, so only the last stretch may be short. */
const CHECK_CHARS = 65_536;
const scratch = Buffer.allocUnsafe((CHECK_CHARS * 3) / 4);

/** The media type and base64 of an image data: URL, or null when it is not one. */
function dataUrl(url: string): { mediaType: string; base64: string } | null {
  const head = DATA_URL_HEAD.exec(url.length > 64 ? url.slice(0, 64) : url);
  if (!head || !isBase64(url, head[0].length)) return null;
  return { mediaType: head[1]!, base64: url.slice(head[0].length) };
}

/** An image part, and its header as checked (format, size within the limit, EXIF orientation). */
export type ImagePart = Extract<ContentPart, { type: 'image' }>;
export type ImageHeaders = Map<ImagePart, ImageHeader>;

/**
 * An image `data:` URL read and checked (base64, the format it declares, its header within the
 * limits), or a 400 naming `where`: the caller's own path, so that each route's translation checks
 * its images in its own words before they become a state.
 */
export function imageDataUrl(url: string, where: string): { mediaType: string; base64: string; header: ImageHeader } {
  const match = dataUrl(url);
  if (!match) {
    const scheme = url.slice(0, url.indexOf(':') + 1) || url.slice(0, 12);
    throw new GatewayError(
      'bad_request',
      url.startsWith('data:')
        ? `${where}: expected a base64 PNG, JPEG, GIF or WebP data: URL`
        : `${where}: only data: URLs are accepted (got ${scheme}…); the gateway does not fetch URLs on a caller's behalf. Embed the image as data:image/png;base64,…`,
    );
  }
  return { ...match, header: checkImage(match.mediaType, match.base64, where) };
}

/**
 * The request's `state` as content parts: text, and images from OpenAI-style `image_url` parts
 * carrying `data:` URLs. Other URLs are refused: the gateway never fetches a URL a caller names.
 * Each image is checked from its header (checkImage) before anything decodes it; `headers` gets
 * what was read.
 */
export function stateParts(state: State, headers: ImageHeaders = new Map()): { parts: ContentPart[]; images: number } {
  if (typeof state === 'string') return { parts: [{ type: 'text', text: state }], images: 0 };
  if (!Array.isArray(state)) return { parts: [{ type: 'text', text: JSON.stringify(state, null, 1) }], images: 0 };
  const parts: ContentPart[] = [];
  let images = 0;
  state.forEach((item, index) => {
    const part = item as { type?: unknown; text?: unknown; image_url?: { url?: unknown } | string };
    if (part && typeof part === 'object' && part.type === 'image_url') {
      const url = typeof part.image_url === 'string' ? part.image_url : part.image_url?.url;
      if (typeof url !== 'string') throw new GatewayError('bad_request', `state[${index}].image_url.url: expected a data: URL string`);
      const where = `state[${index}].image_url.url`;
      const match = imageDataUrl(url, where);
      const image: ImagePart = { type: 'image', mediaType: match.mediaType, base64: match.base64 };
      headers.set(image, match.header);
      parts.push(image);
      images += 1;
    } else if (part && typeof part === 'object' && part.type === 'text' && typeof part.text === 'string') {
      parts.push({ type: 'text', text: part.text });
    } else {
      parts.push({ type: 'text', text: typeof item === 'string' ? item : JSON.stringify(item) });
    }
  });
  return { parts, images };
}

/** The first bytes of each image format an asset may declare. */
const MAGIC: Record<ImageAsset['format'], { mediaType: string; bytes: number[] }> = {
  png: { mediaType: 'image/png', bytes: [0x89, 0x50, 0x4e, 0x47] },
  jpeg: { mediaType: 'image/jpeg', bytes: [0xff, 0xd8, 0xff] },
  jpg: { mediaType: 'image/jpeg', bytes: [0xff, 0xd8, 0xff] },
};

/**
 * The `assets` map's images as parts, each after a line naming it (`Image \`photo\`:`), so that a
 * question referring to `photo` can be read against the image of that name. Checked as inline images
 * are: base64, and the format it says it is.
 */
export function assetParts(assets: Readonly<Record<string, ImageAsset>>, headers: ImageHeaders = new Map()): { key: string; part: ImagePart }[] {
  return Object.entries(assets).map(([key, asset]) => {
    const where = `assets.${key}.data_base64`;
    if (asset.data_base64.startsWith('data:'))
      throw new GatewayError('bad_request', `${where}: standard base64 with no data: prefix (the format goes in assets.${key}.format)`);
    if (!isBase64(asset.data_base64)) throw new GatewayError('bad_request', `${where}: not base64`);
    const magic = MAGIC[asset.format];
    const head = Buffer.from(asset.data_base64.slice(0, 8), 'base64');
    if (!magic.bytes.every((b, i) => head[i] === b))
      throw new GatewayError('bad_request', `${where}: the data is not a ${asset.format.toUpperCase()} image, as assets.${key}.format says`);
    const part: ImagePart = { type: 'image', mediaType: magic.mediaType, base64: asset.data_base64 };
    headers.set(part, checkImage(magic.mediaType, asset.data_base64, where));
    return { key, part };
  });
}

/** The line that names an asset before its image. */
export const assetLabel = (key: string): string => `Image \`${key}\`:`;

/** Approximate token count (4 characters a token) where a provider reported none. */
export const estimateTokens = (text: string): number => estimateTokensOfLength(text.length);
export const estimateTokensOfLength = (characters: number): number => Math.max(1, Math.ceil(characters / 4));
