import { isIP } from 'node:net';
import { hostname, networkInterfaces } from 'node:os';

/** Names every loopback server answers to. */
export const LOOPBACK_HOSTNAMES = ['127.0.0.1', 'localhost', '[::1]'] as const;

const WILDCARDS = new Set(['0.0.0.0', '::', '[::]']);

/** The form a Host header uses for an address: IPv6 in brackets, names in lower case. */
export const hostHeaderForm = (host: string): string => {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return isIP(bare) === 6 ? `[${bare}]` : bare;
};

/** Only this machine can reach it: the loopback range 127.0.0.0/8, ::1, or localhost. */
export function isLoopbackAddress(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || (isIP(bare) === 4 && bare.startsWith('127.'));
}

/**
 * The Host names a server bound to `host` answers to (a request naming any other is refused,
 * which stops DNS rebinding): the loopback names, the bound address itself, every address of this
 * machine when bound to all of them, and the names the operator adds (`--allowed-host`).
 */
export function allowedHostnames(host: string, extra: readonly string[] = []): string[] {
  const names = new Set<string>([...LOOPBACK_HOSTNAMES, ...extra.map(hostHeaderForm)]);
  if (WILDCARDS.has(host)) {
    names.add(hostname().toLowerCase());
    for (const list of Object.values(networkInterfaces())) for (const a of list ?? []) names.add(hostHeaderForm(a.address.replace(/%.*$/, '')));
  } else names.add(hostHeaderForm(host));
  return [...names];
}
