import type { ModelWithEndpoints } from '../../../shared/schemas/model';
import type { ZdrEndpoint } from '../../../shared/schemas/endpoint';
import type { ModelSummary } from '../../../shared/schemas/inspector';
import { GatewayError } from '../errors';
import { BUNDLED_PROVIDERS, type ProviderTemplate } from './bundled-providers';

/**
 * Providers, models and endpoints the gateway knows. Models and endpoints arrive from
 * discovery and the user; until then the catalog is empty and says so truthfully.
 */
export class Catalog {
  private readonly providers = new Map<string, ProviderTemplate>(BUNDLED_PROVIDERS.map((p) => [p.slug, p]));
  private readonly models = new Map<string, ModelWithEndpoints>();

  listProviders(): ProviderTemplate[] {
    return [...this.providers.values()];
  }

  provider(slug: string): ProviderTemplate {
    const found = this.providers.get(slug);
    if (!found) throw new GatewayError('not_found', `Unknown provider "${slug}"`);
    return found;
  }

  listModels(): ModelSummary[] {
    return [...this.models.values()].map((m) => ({ id: m.id, name: m.name, endpoint_count: m.endpoints.length }));
  }

  modelWithEndpoints(modelId: string): ModelWithEndpoints {
    const found = this.models.get(modelId);
    if (!found) {
      const known = this.models.size === 0 ? 'the catalog has no models yet' : `${this.models.size} models are known`;
      throw new GatewayError('not_found', `Model "${modelId}" was not found (${known})`);
    }
    return found;
  }

  zdrEndpoints(): ZdrEndpoint[] {
    return [];
  }
}
