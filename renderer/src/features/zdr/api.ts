import { queryOptions } from '@tanstack/react-query';
import { call } from '../../transport/transport';

/** The endpoints known to retain no prompts. */
export const zdrEndpointsQuery = () => queryOptions({ queryKey: ['zdr', 'endpoints'] as const, queryFn: () => call('endpoints.zdr', {}) });

/** The mean tokens of the requests answered here, per model: what a cost per request is priced on. */
export const trafficQuery = () => queryOptions({ queryKey: ['usage', 'traffic'] as const, queryFn: () => call('usage.traffic', {}) });
