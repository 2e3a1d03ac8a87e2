import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { Dispatcher } from 'undici';
import { isLocalName, isPublicAddress } from './public-address';

/** How outbound connections to hosts a caller named are checked: tests pass their own look-up and policy, and a CA. */
export interface OutboundOptions {
  /** Resolves a host name; tests pass one that answers for their own names. */
  lookup?: (host: string) => Promise<string[]>;
  /** Whether an address may be reached; by default only public ones (no loopback, private, link-local…). */
  allowAddress?: (address: string) => boolean;
  /** A certificate authority to trust besides the system's (a test server's own). */
  ca?: string;
}

const defaultLookup = async (host: string): Promise<string[]> => (await dnsLookup(host, { all: true })).map((a) => a.address);

/**
 * The address to connect to for a URL a caller named, checked: every address its host resolves to
 * must be allowed (public, by default), and the connection goes to the one checked, so a name cannot
 * be pointed elsewhere in between. `notAllowed` is the one error for every refused form (a private
 * address, a local name), so the answer says nothing about what listens where; `unresolved` when
 * the name has no address.
 */
export async function publicTarget(
  target: URL,
  options: OutboundOptions,
  errors: { notAllowed: () => Error; unresolved: (host: string) => Error },
): Promise<{ host: string; address: string }> {
  const host = target.hostname.replace(/^\[|\]$/g, '');
  const allowed = options.allowAddress ?? isPublicAddress;
  if (!options.allowAddress && isLocalName(host)) throw errors.notAllowed();
  const addresses = isIP(host) ? [host] : await (options.lookup ?? defaultLookup)(host).catch(() => []);
  if (addresses.length === 0) throw errors.unresolved(host);
  if (addresses.some((a) => !allowed(a))) throw errors.notAllowed();
  return { host, address: addresses[0]! };
}

/** An undici dispatcher that connects only to `address` (the checked one), presenting `host` for TLS. */
export async function pinnedDispatcher(host: string, address: string, options: OutboundOptions): Promise<Dispatcher & { close(): Promise<void> }> {
  // undici is loaded with the first outbound request: a server that makes none never holds it.
  const { Agent } = await import('undici');
  return new Agent({
    connect: {
      ...(options.ca ? { ca: options.ca } : {}),
      servername: isIP(host) ? undefined : host,
      lookup: (_h, _o, done) => done(null, [{ address, family: isIP(address) }]),
    },
  });
}
