import { queryOptions } from '@tanstack/react-query';
import { call } from '../../transport/transport';

/** The endpoints known to retain no prompts. */
export const zdrEndpointsQuery = () => queryOptions({ queryKey: ['zdr', 'endpoints'] as const, queryFn: () => call('endpoints.zdr', {}) });

/** What 1,000 requests like the user's (or of the typed tokens) cost per model, as routed now and with ZDR required: the core's cost model. */
export const zdrCostQuery = (typed: { input_tokens: number; output_tokens: number } | null) =>
  queryOptions({ queryKey: ['usage', 'zdr-cost', typed] as const, queryFn: () => call('usage.zdr_cost', { typed }) });

/** The mean tokens of the requests answered here, per model: what a cost per request is priced on. */
export const trafficQuery = () => queryOptions({ queryKey: ['usage', 'traffic'] as const, queryFn: () => call('usage.traffic', {}) });
