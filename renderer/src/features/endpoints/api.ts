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
export function useProbeEndpoints(model: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call('endpoints.probe', { model, calls: 3 }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: endpointsKeys.all }),
  });
}
