import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { Agent, request } from 'undici';
import { GatewayError } from '../errors';

/** Largest image fetched for a request; larger ones are refused rather than cut. */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
const TIMEOUT_MS = 10_000;
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

export interface ImageFetchOptions {
  /** Resolves a host name; tests pass one that answers for their own names. */
  lookup?: (host: string) => Promise<string[]>;
  /** Whether an address may be fetched; by default only public ones (no loopback, private, link-local…). */
  allowAddress?: (address: string) => boolean;
  /** A certificate authority to trust besides the system's (a test server's own). */
  ca?: string;
}

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
  const host = target.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [host] : await (options.lookup ?? defaultLookup)(host).catch(() => []);
  if (addresses.length === 0) throw new GatewayError('bad_request', `${where}: ${host} could not be resolved`);
  const allowed = options.allowAddress ?? isPublicAddress;
  const refused = addresses.find((a) => !allowed(a));
  if (refused) throw new GatewayError('bad_request', `${where}: ${host} resolves to ${refused}, which is not a public address; such images are not fetched`);
  const address = addresses[0]!;
  const dispatcher = new Agent({
    connect: {
      ...(options.ca ? { ca: options.ca } : {}),
      servername: isIP(host) ? undefined : host,
      lookup: (_h, _o, done) => done(null, [{ address, family: isIP(address) }]),
    },
  });
  try {
    // undici's request follows no redirect: a 3xx is answered as itself.
    const response = await request(target, { dispatcher, method: 'GET', headersTimeout: TIMEOUT_MS, bodyTimeout: TIMEOUT_MS }).catch((error: Error) => {
      throw new GatewayError('bad_request', `${where}: the image could not be fetched (${error.message})`);
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
    for await (const chunk of response.body) {
      size += (chunk as Buffer).length;
      if (size > MAX_IMAGE_BYTES) {
        response.body.destroy();
        throw new GatewayError('bad_request', `${where}: the image is larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MB`);
      }
      chunks.push(chunk as Buffer);
    }
    return `data:${type};base64,${Buffer.concat(chunks).toString('base64')}`;
  } finally {
    void dispatcher.close();
  }
}

const defaultLookup = async (host: string): Promise<string[]> => (await dnsLookup(host, { all: true })).map((a) => a.address);

/** Not loopback, private, link-local, carrier-grade NAT, multicast or reserved (IPv4 and IPv6). */
export function isPublicAddress(address: string): boolean {
  if (isIP(address) === 4) {
    const [a, b] = address.split('.').map(Number) as [number, number];
    return !(
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      a >= 224
    );
  }
  const v6 = address.toLowerCase();
  if (v6.startsWith('::ffff:')) return isPublicAddress(v6.slice(7));
  return !(
    v6 === '::' ||
    v6 === '::1' ||
    v6.startsWith('fc') ||
    v6.startsWith('fd') ||
    v6.startsWith('fe8') ||
    v6.startsWith('fe9') ||
    v6.startsWith('fea') ||
    v6.startsWith('feb') ||
    v6.startsWith('ff')
  );
}
