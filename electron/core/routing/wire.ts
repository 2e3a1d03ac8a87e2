/**
 * Routing, wired: the measured figures of every endpoint (this instance's and, on a team's store,
 * the others'), their health (cool-downs and breakers, told between a team's instances), and the
 * router that plans over them with the account's preferences.
 */
import type { Catalog } from '../catalog/catalog';
import type { Clock } from '../clock';
import { EndpointMetrics } from '../metrics/endpoint-metrics';
import type { SettingsStore } from '../settings/settings';
import type { Storage } from '../store/ports';
import { HealthRegistry } from './health';
import { Router } from './router';

export interface RoutingDeps {
  storage: Pick<Storage, 'metrics' | 'health'>;
  clock: Clock;
  catalog: Catalog;
  settings: SettingsStore;
  /** This instance among a team's: whose endpoint figures these are. */
  instance: string;
  random?: (() => number) | undefined;
}

export async function wireRouting(deps: RoutingDeps): Promise<{ metrics: EndpointMetrics; health: HealthRegistry; router: Router }> {
  const { storage, clock, catalog, settings } = deps;
  const metrics = await EndpointMetrics.open(storage.metrics, clock, deps.instance);
  const health = new HealthRegistry(clock);
  // A provider's 429 or an opened breaker seen by one of a team's instances cools the endpoint on all.
  if (storage.health) await health.shareWith(storage.health);
  const router = new Router({
    catalog,
    metrics,
    health,
    clock,
    account: () => settings.get().routing,
    ...(deps.random ? { random: deps.random } : {}),
  });
  return { metrics, health, router };
}
