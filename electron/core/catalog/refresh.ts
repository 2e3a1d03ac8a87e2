import type { Clock } from '../clock';
import type { ProviderKeys } from '../keys/provider-keys';
import type { UpstreamHttp } from '../providers/http';
import { providerHints } from './bundled-providers';
import type { Catalog } from './catalog';
import { discover, type DiscoveryResult } from './discovery';

/**
 * Discovery's refresh: every enabled provider's own model listing read into the catalog, each
 * provider's last result kept for Settings, and then `after` (the simulated fleet turning off once
 * real providers are there).
 */
export class CatalogRefresh {
  private readonly results = new Map<string, DiscoveryResult>();
  private closed = false;

  constructor(private readonly deps: { catalog: Catalog; http: UpstreamHttp; clock: Clock; providerKeys: ProviderKeys; after: () => Promise<void> }) {}

  async refresh(): Promise<DiscoveryResult[]> {
    const { catalog, http, clock, providerKeys } = this.deps;
    const { contribution, results } = await discover(catalog.listProviders(), {
      http,
      clock,
      keyFor: (provider) => providerKeys.keyFor(provider.slug, provider.base_url, provider.name),
      hints: providerHints,
      knownModel: (provider, upstream) =>
        catalog.endpoints().find((e) => e.source !== 'discovered' && e.provider.slug === provider && e.upstreamModel === upstream)?.model.id,
    });
    if (this.closed) return results;
    for (const r of results) this.results.set(r.provider, r);
    catalog.setSource('discovered', contribution);
    await this.deps.after();
    return results;
  }

  /** Each provider's last listing result. */
  last(): ReadonlyMap<string, DiscoveryResult> {
    return this.results;
  }

  close(): void {
    this.closed = true;
  }
}
