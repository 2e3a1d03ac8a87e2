import type * as IpAddr from 'ipaddr.js';
import { onFirstUse } from '../on-first-use';

/** ipaddr.js, loaded with the first address checked (only image URLs are). */
const addresses = onFirstUse<typeof IpAddr>('ipaddr.js');

/**
 * Whether an address is on the public internet: the one rule for every connection Verdict makes to
 * a host a caller named (image URLs). Allowed: IPv4 addresses that ipaddr.js classes as plain
 * unicast, and IPv6 global unicast (2000::/3) outside every special range. Refused: loopback,
 * private, link-local, carrier-grade NAT, multicast, broadcast, unspecified, documentation,
 * benchmarking and other reserved ranges; IPv6 forms that carry an IPv4 address (IPv4-mapped
 * `::ffff:0:0/96`, IPv4-compatible `::/96`, NAT64 `64:ff9b::/96` and `64:ff9b:1::/48`, 6to4
 * `2002::/16`, Teredo `2001::/32`), whatever IPv4 address they carry, since the host that answers
 * them is a translator's choice; and anything that is not an address.
 */
export function isPublicAddress(address: string): boolean {
  const ipaddr = addresses();
  let parsed: IpAddr.IPv4 | IpAddr.IPv6;
  try {
    parsed = ipaddr.parse(address.replace(/^\[|\]$/g, ''));
  } catch {
    return false;
  }
  if (parsed.kind() === 'ipv4') return parsed.range() === 'unicast';
  const v6 = parsed as IpAddr.IPv6;
  if (v6.range() !== 'unicast') return false;
  // IPv4-compatible (::a.b.c.d, deprecated) has no range of its own in ipaddr.js.
  if (v6.match(ipaddr.IPv6.parse('::'), 96)) return false;
  return v6.match(ipaddr.IPv6.parse('2000::'), 3);
}

/** Names that always mean this machine (RFC 6761), refused before any look-up. */
export function isLocalName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost') || name === 'localhost.localdomain';
}
