import type { OperationName, } from '../../shared/contract/names';
import type { OperationOutput, ParsedOperationInput } from '../../shared/contract/operations';
import type { Core } from './create-core';
import { SecretStoreError } from './keys/secret-store';
import { GatewayError } from './errors';

export type Handlers = {
  [N in OperationName]: (input: ParsedOperationInput<N>) => Promise<OperationOutput<N>>;
};

/** What the inspector operations need from the core. */
type HandlerDeps = Omit<Core, 'handlers'>;

const APP_VERSION_FALLBACK = '0.0.0';

/** The implementation of every inspector operation; hosts reach them only through dispatch. */
export function createHandlers(core: HandlerDeps): Handlers {
  const requireKnownProvider = (slug: string) => core.catalog.provider(slug);

  return {
    'app.info': async () => ({
      name: 'Verdict',
      version: core.options.version || APP_VERSION_FALLBACK,
      host: core.options.host,
      data_dir: core.options.dataDir,
      secret_storage: core.options.secrets.status(),
    }),
    'settings.get': async () => core.settings.get(),
    'settings.update': async (patch) => core.settings.update(patch),
    'providers.list': async () =>
      Promise.all(
        core.catalog.listProviders().map(async (p) => {
          const state = await core.providerKeys.state(p.slug);
          return {
            slug: p.slug,
            name: p.name,
            wire_format: p.wireFormat,
            base_url: p.baseUrl,
            local: p.local,
            needs_key: !p.local,
            key_set: state.key_set,
            key_updated_at: state.key_updated_at,
          };
        }),
      ),
    'providerKeys.set': async ({ provider, key }) => {
      requireKnownProvider(provider);
      try {
        return await core.providerKeys.set(provider, key);
      } catch (error) {
        if (error instanceof SecretStoreError) throw new GatewayError('unavailable', error.message);
        throw error;
      }
    },
    'providerKeys.clear': async ({ provider }) => {
      requireKnownProvider(provider);
      return core.providerKeys.clear(provider);
    },
    'apiKeys.list': async () => core.apiKeys.list(),
    'apiKeys.create': async ({ name, kind }) => core.apiKeys.create(name, kind),
    'apiKeys.revoke': async ({ id }) => core.apiKeys.revoke(id),
    'models.list': async () => core.catalog.listModels(),
    'models.endpoints': async ({ model }) => core.catalog.modelWithEndpoints(model),
    'endpoints.zdr': async () => ({ data: core.catalog.zdrEndpoints() }),
  };
}
