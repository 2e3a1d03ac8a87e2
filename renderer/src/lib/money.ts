/**
 * US dollars for people: cents for amounts of a dollar or more, and three significant digits
 * below that, so that a spend of $0.0000086 is not shown as $0.0000.
 */
export function formatUsd(usd: number): string {
  if (!Number.isFinite(usd)) return 'unknown';
  if (usd === 0) return '$0';
  const sign = usd < 0 ? '-' : '';
  const size = Math.abs(usd);
  const digits = Math.min(12, Math.max(2, 2 - Math.floor(Math.log10(size))));
  return `${sign}$${size.toFixed(digits)}`;
}
