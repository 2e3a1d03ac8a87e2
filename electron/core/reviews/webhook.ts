import { createHmac } from 'node:crypto';
import { isIP } from 'node:net';
import { GatewayError } from '../errors';
import { isLocalName, isPublicAddress } from '../net/public-address';
import { pinnedDispatcher, publicTarget, type OutboundOptions } from '../net/public-target';

/** The header a delivery is signed in: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" under the webhook's secret>`. */
export const WEBHOOK_SIGNATURE_HEADER = 'x-verdict-signature';
const TIMEOUT_MS = 10_000;
/** When a delivery is tried again after a failure (a refused connection, a timeout, a status other than 2xx). */
export const RETRY_AFTER_MS = [2_000, 10_000] as const;

/** Where a human stage's answers are sent, and the secret their signature is made with (the caller's; never shown again). */
export interface Webhook {
  url: string;
  secret: string;
}

export function signWebhook(secret: string, timestamp: number, body: string): string {
  return `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** A webhook as a request names it: an https URL to a host that is not this machine or a private address (checked again, resolved, at each delivery), and a secret. */
export function checkWebhook(value: unknown, where: string, options: OutboundOptions): Webhook {
  const w = value as { url?: unknown; secret?: unknown } | null;
  if (!w || typeof w !== 'object' || Array.isArray(w)) throw new GatewayError('bad_request', `${where}: expected {"url", "secret"}`);
  const extra = Object.keys(w).filter((k) => k !== 'url' && k !== 'secret');
  if (extra.length > 0) throw new GatewayError('bad_request', `${where}.${extra[0]}: unknown property "${extra[0]}" is not allowed here`);
  if (typeof w.secret !== 'string' || w.secret.length < 16 || w.secret.length > 256)
    throw new GatewayError('bad_request', `${where}.secret: a string of 16 to 256 characters, which signs each delivery`);
  let url: URL;
  try {
    url = new URL(String(w.url));
  } catch {
    throw new GatewayError('bad_request', `${where}.url: not a URL`);
  }
  if (url.protocol !== 'https:') throw new GatewayError('bad_request', `${where}.url: only https webhook URLs are called (got ${url.protocol})`);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const allowed = options.allowAddress ?? isPublicAddress;
  if ((!options.allowAddress && isLocalName(host)) || (isIP(host) && !allowed(host)))
    throw new GatewayError('bad_request', `${where}.url: the host is not a public internet address; webhooks are not sent there`);
  return { url: url.toString(), secret: w.secret };
}

/**
 * Posts `body` to the webhook, signed; the host resolved and checked at this moment, the connection
 * made to the address checked. Whether it was taken (a 2xx); a failure of any kind is false.
 */
export async function deliver(webhook: Webhook, body: string, now: number, options: OutboundOptions): Promise<boolean> {
  const target = new URL(webhook.url);
  const refused = () => new Error('not a public address');
  const { host, address } = await publicTarget(target, options, { notAllowed: refused, unresolved: refused }).catch(() => ({ host: '', address: '' }));
  if (!address) return false;
  const { request } = await import('undici');
  const dispatcher = await pinnedDispatcher(host, address, options);
  try {
    const response = await request(target, {
      dispatcher,
      method: 'POST',
      headers: { 'content-type': 'application/json', [WEBHOOK_SIGNATURE_HEADER]: signWebhook(webhook.secret, Math.floor(now / 1000), body) },
      body,
      headersTimeout: TIMEOUT_MS,
      bodyTimeout: TIMEOUT_MS,
    });
    await response.body.dump();
    return response.statusCode >= 200 && response.statusCode < 300;
  } catch {
    return false;
  } finally {
    void dispatcher.close();
  }
}
