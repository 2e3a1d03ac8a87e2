/**
 * US dollars for people, the one way Verdict writes money on screens and in messages: cents for
 * amounts of a dollar or more, three significant digits below that (so a spend of $0.0000086 is not
 * shown as $0.0000), nothing at all as $0, an impossible figure as "unknown". `trimZeros` drops the
 * zeros a fixed width would keep ("$0.05" rather than "$0.0500"), for sentences.
 */
export function formatUsd(usd: number, options: { trimZeros?: boolean } = {}): string {
  if (!Number.isFinite(usd)) return 'unknown';
  if (usd === 0) return '$0';
  const sign = usd < 0 ? '-' : '';
  const size = Math.abs(usd);
  const digits = Math.min(12, Math.max(2, 2 - Math.floor(Math.log10(size))));
  const text = size.toFixed(digits);
  return `${sign}$${options.trimZeros ? text.replace(/\.?0+$/, '') : text}`;
}
