import { GatewayError } from '../errors';
import { pinnedDispatcher, publicTarget, type OutboundOptions } from '../net/public-target';

export { isPublicAddress } from '../net/public-address';

/** Largest image fetched for a request; larger ones are refused rather than cut. */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
const TIMEOUT_MS = 10_000;
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

/** Image URLs are reached as every host a caller names is (net/public-target.ts). */
export type ImageFetchOptions = OutboundOptions;

/**
 * Fetches an image a request names by an https URL, as a data URL, when the settings allow it.
 * Only https, only public addresses (checked on the address the name resolves to, and the
 * connection made to that address, so a name cannot be pointed elsewhere in between), no redirect,
 * an image type, at most MAX_IMAGE_BYTES. Any failure is a 400 that names `where` and says why.
 */
export async function fetchImage(url: string, where: string, options: ImageFetchOptions = {}): Promise<string> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new GatewayError('bad_request', `${where}: not a URL`);
  }
  if (target.protocol !== 'https:') throw new GatewayError('bad_request', `${where}: only https image URLs are fetched (got ${target.protocol})`);
  // WHATWG URL parsing has already turned 2130706433, 0x7f000001 and 127.1 into 127.0.0.1.
  const { host, address } = await publicTarget(target, options, {
    notAllowed: () => notPublic(where),
    unresolved: (name) => new GatewayError('bad_request', `${where}: ${name} could not be resolved`),
  });
  const { request } = await import('undici');
  const dispatcher = await pinnedDispatcher(host, address, options);
  try {
    // undici's request follows no redirect: a 3xx is answered as itself.
    // One message whatever went wrong on the way (refused, reset, TLS, timeout), so that the
    // answer says nothing about what listens where.
    const response = await request(target, { dispatcher, method: 'GET', headersTimeout: TIMEOUT_MS, bodyTimeout: TIMEOUT_MS }).catch(() => {
      throw new GatewayError('bad_request', `${where}: the image could not be fetched from its host`);
    });
    if (response.statusCode !== 200) {
      await response.body.dump();
      throw new GatewayError('bad_request', `${where}: the image URL answered HTTP ${response.statusCode}`);
    }
    const type = String(response.headers['content-type'] ?? '')
      .split(';')[0]!
      .trim()
      .toLowerCase();
    if (!IMAGE_TYPES.includes(type)) {
      await response.body.dump();
      throw new GatewayError('bad_request', `${where}: the URL is not a PNG, JPEG, GIF or WebP image (content-type ${type || 'none'})`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of response.body) {
        size += (chunk as Buffer).length;
        if (size > MAX_IMAGE_BYTES) {
          response.body.destroy();
          throw new GatewayError('bad_request', `${where}: the image is larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MB`);
        }
        chunks.push(chunk as Buffer);
      }
    } catch (error) {
      if (error instanceof GatewayError) throw error;
      throw new GatewayError('bad_request', `${where}: the image could not be fetched from its host`);
    }
    return `data:${type};base64,${Buffer.concat(chunks).toString('base64')}`;
  } finally {
    void dispatcher.close();
  }
}

/** The one refusal for every address or name that is not on the public internet, whatever form it took. */
const notPublic = (where: string): GatewayError =>
  new GatewayError('bad_request', `${where}: the image URL's host is not a public internet address; such images are not fetched`);
