import type { Usage } from '../../../shared/schemas/decisions-response';
import type { CatalogEndpoint } from '../catalog/types';
import type { UpstreamUsage } from '../providers/types';
import { priceCall, priceCeiling } from '../cost/price';

/** One upstream call's billable usage, kept for the request's total. */
export interface LedgerEntry {
  endpoint: CatalogEndpoint;
  usage: UpstreamUsage;
  /** True when the provider reported no token counts and they were estimated. */
  estimated: boolean;
}

/** USD for one call: the provider's own figure, else the endpoint's prices per token class (cost/price.ts); null if a price is unknown. */
export function callCost(endpoint: CatalogEndpoint, usage: UpstreamUsage): number | null {
  if (usage.cost !== null) return usage.cost;
  if (endpoint.prices.completion === null || usage.inputTokens === null || usage.outputTokens === null) return null;
  return priceCall(endpoint.prices, { input: usage.inputTokens, cached: usage.cachedInputTokens, written: usage.cacheWriteTokens, output: usage.outputTokens });
}

/** The most one call can cost on the endpoint with at most these tokens; null when a price is unknown. */
export const maxCallCost = (endpoint: CatalogEndpoint, call: { promptTokens: number; outputTokens: number }): number | null =>
  priceCeiling(endpoint.prices, { input: call.promptTokens, output: call.outputTokens });

/** The response's usage: every call summed (retries and fallbacks too); cost only when every part is known. */
export function totalUsage(ledger: readonly LedgerEntry[]): Usage {
  let input = 0;
  let output = 0;
  let cost: number | null = 0;
  for (const entry of ledger) {
    input += entry.usage.inputTokens ?? 0;
    output += entry.usage.outputTokens ?? 0;
    const c = callCost(entry.endpoint, entry.usage);
    cost = cost === null || c === null ? null : cost + c;
  }
  return cost === null ? { input_tokens: input, output_tokens: output } : { input_tokens: input, output_tokens: output, cost: Number(cost.toPrecision(12)) };
}

/** Of the request's tokens, those read from a cache, written to one, and spent reasoning (as providers reported them). */
export interface TokenDetails {
  cachedInputTokens: number;
  cacheWriteTokens: number;
  reasoningTokens: number;
}

export function tokenDetails(ledger: readonly LedgerEntry[]): TokenDetails {
  let cached = 0;
  let written = 0;
  let reasoning = 0;
  for (const { usage } of ledger) {
    cached += usage.cachedInputTokens;
    written += usage.cacheWriteTokens;
    reasoning += usage.reasoningTokens ?? 0;
  }
  return { cachedInputTokens: cached, cacheWriteTokens: written, reasoningTokens: reasoning };
}

/** Uncached input tokens billed over the ledger: what prefix caching saves. */
export const uncachedInput = (ledger: readonly LedgerEntry[]): number =>
  ledger.reduce((n, e) => n + Math.max(0, (e.usage.inputTokens ?? 0) - e.usage.cachedInputTokens), 0);

const failedUsage = new WeakMap<object, Usage>();

/** Records on an error what the upstream calls made before it cost, so that a failed request is charged too. */
export function attachUsage(error: unknown, usage: Usage): void {
  if (typeof error === 'object' && error !== null) failedUsage.set(error, usage);
}

/** The usage of the upstream calls a failed request made (none when it made no paid call). */
export const usageOf = (error: unknown): Usage | undefined => (typeof error === 'object' && error !== null ? failedUsage.get(error) : undefined);
