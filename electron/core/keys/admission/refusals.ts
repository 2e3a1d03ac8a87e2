import { GatewayError } from '../../errors';

/** USD to six decimals, as spend and credit are shown. */
export const roundUsd = (usd: number): number => Number(usd.toFixed(6));

/** The one 429 of a key's rate limit; `share` when this instance admits only its share of it (the shared limits away). */
export function rateLimited(label: string, limitRpm: number, waitSeconds: number, share?: number): GatewayError {
  const message =
    share === undefined
      ? `Key ${label} is limited to ${limitRpm} requests per minute; try again in ${waitSeconds} s`
      : `Key ${label} is limited to ${limitRpm} requests per minute; while the shared limits cannot be reached this instance admits its share, ${share}; try again in ${waitSeconds} s`;
  return new GatewayError('rate_limited', message, {
    headers: { 'Retry-After': String(waitSeconds) },
    metadata: { limit_rpm: limitRpm, ...(share === undefined ? {} : { instance_share_rpm: share }), retry_after_seconds: waitSeconds },
  });
}

/** The one 402 of a key's credit: spent already (before anything is known of a request), or too little free for what this request may cost. */
export function creditRefused(label: string, limit: number, figures: { spent: number; held?: number; requestMaxCost?: number }): GatewayError {
  const { spent, held, requestMaxCost } = figures;
  if (requestMaxCost === undefined)
    return new GatewayError('payment_required', `Key ${label} has spent $${roundUsd(spent)} of its $${limit} credit; raise its limit or use another key`, {
      metadata: { credit_limit: limit, spent: roundUsd(spent) },
    });
  const free = Math.max(0, limit - spent - (held ?? 0));
  return new GatewayError(
    'payment_required',
    `Key ${label} has $${roundUsd(free)} of its $${limit} credit free, and this request may cost up to $${roundUsd(requestMaxCost)}; raise its limit or use another key`,
    { metadata: { credit_limit: limit, spent: roundUsd(spent), reserved: roundUsd(held ?? 0), request_max_cost: roundUsd(requestMaxCost) } },
  );
}
