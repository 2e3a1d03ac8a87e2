import type { PercentileCutoffs, ProviderPreferences } from '../../../shared/schemas/provider-preferences';
import type { PercentileStats } from '../../../shared/schemas/endpoint';
import { endpointSlug } from '../catalog/catalog';
import type { CatalogEndpoint } from '../catalog/types';
import { hostRefusal } from './host-fit';
import type { AccountRouting, Candidate, RequestNeeds } from './plan-input';

/** Which endpoints a request may go to (the hard filters), and how well each meets its preferences (the tiers). Pure. */

export const lower = (s: string) => s.toLowerCase();

/** A base slug matches every endpoint of a provider; `slug/tag` only that one; display names too. */
export function matchesProvider(endpoint: CatalogEndpoint, name: string): boolean {
  const wanted = lower(name.trim());
  return (
    wanted === lower(endpoint.provider.slug) ||
    wanted === lower(endpointSlug(endpoint)) ||
    wanted === lower(`${endpoint.provider.slug}/${endpoint.tag}`) ||
    wanted === lower(endpoint.provider.name)
  );
}

export const anyMatch = (endpoint: CatalogEndpoint, names: readonly string[]) => names.some((n) => matchesProvider(endpoint, n));

export type Filter = { name: string; test: (c: Candidate) => string | null };

/** The filter of what a native host can take: the request's own shape, not the caller's preferences. */
export const HOST_LIMITS = 'host limits';

export const TIER_NOTES = ['', '; no measurements for the preferred latency/throughput', '; misses preferred latency/throughput, deprioritised'] as const;

/** The hard filters of ROUTING.md: an endpoint failing one is never tried. Each says why, or null. */
export function hardFilters(prefs: ProviderPreferences | undefined, account: AccountRouting, needs: RequestNeeds): Filter[] {
  return [...policyFilters(prefs, account), ...priceFilters(prefs, needs), ...capabilityFilters(prefs, needs)];
}

/** Keeps the endpoints whose data policy says `wanted` of `field`; a policy not known, or saying otherwise, is each its own reason. */
function dataPolicyFilter(name: string, field: 'zdr' | 'collects_data', wanted: boolean, unknown: string, otherwise: string): Filter {
  return {
    name,
    test: (c) => {
      const said = c.endpoint.provider.data_policy[field];
      return said === wanted ? null : said === null ? unknown : otherwise;
    },
  };
}

/** Who may answer: the caller's and the account's provider lists, data policies and quantizations. */
function policyFilters(prefs: ProviderPreferences | undefined, account: AccountRouting): Filter[] {
  const filters: Filter[] = [];
  const only = prefs?.only ?? null;
  if (only && only.length > 0) filters.push({ name: 'only', test: (c) => (anyMatch(c.endpoint, only) ? null : 'not in provider.only') });
  if (account.only.length > 0) {
    filters.push({ name: 'account allow-list', test: (c) => (anyMatch(c.endpoint, account.only) ? null : 'not in the account-wide allow-list') });
  }
  const ignore = [...(prefs?.ignore ?? []), ...account.ignore];
  if (ignore.length > 0) filters.push({ name: 'ignore', test: (c) => (anyMatch(c.endpoint, ignore) ? 'ignored (provider.ignore or account-wide)' : null) });
  if (prefs?.zdr === true || account.zdr) {
    filters.push(dataPolicyFilter('zdr', 'zdr', true, 'zero data retention not known', 'retains prompts (not ZDR)'));
  }
  if (prefs?.data_collection === 'deny') {
    filters.push(dataPolicyFilter('data_collection', 'collects_data', false, 'data collection policy not known', 'may collect user data'));
  }
  const quantizations = prefs?.quantizations ?? null;
  if (quantizations && quantizations.length > 0) {
    filters.push({
      name: 'quantizations',
      test: (c) => (quantizations.includes(c.endpoint.quantization ?? 'unknown') ? null : `quantization ${c.endpoint.quantization ?? 'unknown'} not allowed`),
    });
  }
  return filters;
}

/** `max_price`: each given price ceiling, per million tokens, per request or per image. */
function priceFilters(prefs: ProviderPreferences | undefined, needs: RequestNeeds): Filter[] {
  const filters: Filter[] = [];
  const max = prefs?.max_price;
  if (max) {
    const limits: [keyof CatalogEndpoint['prices'], string | undefined, number, string][] = [
      ['prompt', max.prompt, 1e6, 'prompt price per million tokens'],
      ['completion', max.completion, 1e6, 'completion price per million tokens'],
      ['request', max.request, needs.calls ?? 1, 'price per request'],
      ['image', max.image, 1, 'price per image'],
    ];
    filters.push({
      name: 'max_price',
      test: (c) => {
        for (const [field, limit, scale, label] of limits) {
          if (limit === undefined) continue;
          const price = c.endpoint.prices[field];
          // A request or image price nobody gave means none is charged only if the endpoint says so; unknown fails.
          if (price === null) {
            if (field === 'request' || field === 'image') continue;
            return `${label} unknown`;
          }
          if (price * scale > Number(limit)) return `${label} ${+(price * scale).toPrecision(6)} over max_price ${limit}`;
        }
        return null;
      },
    });
  }
  return filters;
}

/** What the request needs of the endpoint: its parameters, distillation, and what a native host can take. */
function capabilityFilters(prefs: ProviderPreferences | undefined, needs: RequestNeeds): Filter[] {
  const filters: Filter[] = [];
  if (prefs?.require_parameters === true && needs.parameters.length > 0) {
    filters.push({
      name: 'require_parameters',
      test: (c) => {
        const missing = needs.parameters.filter((p) => !c.endpoint.supportedParameters.includes(p));
        return missing.length === 0 ? null : `does not support ${missing.join(', ')}`;
      },
    });
  }
  if (prefs?.enforce_distillable_text === true) {
    filters.push({
      name: 'enforce_distillable_text',
      test: (c) => (c.endpoint.model.distillable === true ? null : 'model author does not allow distillation'),
    });
  }
  const shape = needs.decision;
  if (shape) filters.push({ name: HOST_LIMITS, test: (c) => (c.endpoint.host ? hostRefusal(c.endpoint.host, c.endpoint.contextLength, shape) : null) });
  return filters;
}

/** 0 meets every given cutoff, 1 unmeasured, 2 misses at least one. */
export function preferenceTier(c: Candidate, prefs: ProviderPreferences | undefined): number {
  const latency = cutoffs(prefs?.preferred_max_latency);
  const throughput = cutoffs(prefs?.preferred_min_throughput);
  if (!latency && !throughput) return 0;
  if ((latency && c.latency && misses(c.latency, latency, 1)) || (throughput && c.throughput && misses(c.throughput, throughput, -1))) return 2;
  return (latency && !c.latency) || (throughput && !c.throughput) ? 1 : 0;
}

const PERCENTILE_KEYS = ['p50', 'p75', 'p90', 'p99'] as const;

/** Whether measured stats miss any given cutoff: above it (direction 1) or below it (-1). */
function misses(stats: PercentileStats, limits: PercentileCutoffs, direction: 1 | -1): boolean {
  for (const key of PERCENTILE_KEYS) {
    const limit = limits[key];
    if (limit !== null && limit !== undefined && (stats[key] - limit) * direction > 0) return true;
  }
  return false;
}

export function cutoffs(value: number | PercentileCutoffs | null | undefined): PercentileCutoffs | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'number' ? { p50: value } : value;
}
