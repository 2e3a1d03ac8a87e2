/** Formatting with units; null (unknown or unmeasured) is shown as a dash with a reason. */
export const UNKNOWN = '—';

export function perMillion(pricePerToken: number | null): string {
  if (pricePerToken === null) return UNKNOWN;
  const value = pricePerToken * 1e6;
  return `$${value < 0.01 && value > 0 ? value.toPrecision(2) : value.toFixed(2)}`;
}

export const seconds = (v: number | null | undefined): string => (v === null || v === undefined ? UNKNOWN : `${v < 1 ? v.toFixed(3) : v.toFixed(2)} s`);
export const tokensPerSecond = (v: number | null | undefined): string => (v === null || v === undefined ? UNKNOWN : `${v.toFixed(v < 10 ? 1 : 0)} tok/s`);
export const percent = (v: number | null | undefined): string => (v === null || v === undefined ? UNKNOWN : `${v.toFixed(v === 100 ? 0 : 1)}%`);
export const integer = (v: number | null | undefined): string => (v === null || v === undefined ? UNKNOWN : v.toLocaleString('en-US'));
export const probability = (v: number): string => `${(v * 100).toFixed(1)}%`;

export const STATUS_LABEL: Record<number, string> = { 0: 'healthy', [-1]: 'degraded', [-2]: 'paused', [-3]: 'down' };
