import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ProviderPreferences } from '../../../../shared/schemas/provider-preferences';
import { call } from '../../transport/transport';

export const endpointsKeys = {
  all: ['endpoints'] as const,
  models: ['endpoints', 'models'] as const,
  listing: (model: string) => ['endpoints', 'listing', model] as const,
  details: (model: string) => ['endpoints', 'details', model] as const,
  plan: (model: string, prefs: ProviderPreferences | undefined) => ['endpoints', 'plan', model, prefs] as const,
  uptime: (model: string) => ['endpoints', 'uptime', model] as const,
};

export const modelsQuery = () => queryOptions({ queryKey: endpointsKeys.models, queryFn: () => call('models.list', {}) });

export const listingQuery = (model: string, live: boolean) =>
  queryOptions({ queryKey: endpointsKeys.listing(model), queryFn: () => call('models.endpoints', { model }), refetchInterval: live ? 5_000 : false });

export const detailsQuery = (model: string, live: boolean) =>
  queryOptions({ queryKey: endpointsKeys.details(model), queryFn: () => call('endpoints.details', { model }), refetchInterval: live ? 5_000 : false });

export const planQuery = (model: string, preferences: ProviderPreferences | undefined) =>
  queryOptions({
    queryKey: endpointsKeys.plan(model, preferences),
    queryFn: () => call('routing.plan', { model, ...(preferences ? { preferences } : {}) }),
    retry: false,
  });

/** Uptime, latency and throughput per provider over the last hour, minute by minute. */
export const uptimeQuery = (model: string, live: boolean) =>
  queryOptions({ queryKey: endpointsKeys.uptime(model), queryFn: () => call('endpoints.uptime', { model, hours: 1 }), refetchInterval: live ? 5_000 : false });

/** Sends a few short requests to each endpoint of a model (real providers charge for them); every figure may change. */
/** How many calls Measure now sends each endpoint. */
export const PROBE_CALLS = 3;

/** What Measure now will cost at most, before the click. */
export const probeCostQuery = (model: string) =>
  queryOptions({ queryKey: [...endpointsKeys.all, 'probe-cost', model] as const, queryFn: () => call('endpoints.probeCost', { model, calls: PROBE_CALLS }) });

export function useProbeEndpoints(model: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call('endpoints.probe', { model, calls: PROBE_CALLS }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: endpointsKeys.all }),
  });
}
