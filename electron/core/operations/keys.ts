import { encodeBoundKey, originOf } from '../keys/bound-key';
import { GatewayError } from '../errors';
import { SecretStoreError } from '../keys/secret-store';
import { actorOf, type Handlers } from './index';
import type { ApiKeys } from '../keys/api-keys';
import type { AuditLog } from '../audit/audit-log';
import type { Catalog } from '../catalog/catalog';
import type { DiscoveryResult } from '../catalog/discovery';
import type { KeyManagement } from '../keys/key-management';
import type { ProviderKeys } from '../keys/provider-keys';
import type { SecretStore } from '../keys/secret-store';
import type { SettingsStore } from '../settings/settings';
import { REMOTE_KEY_SECRET } from '../service';

type KeyOps = Pick<
  Handlers,
  | 'providers.list'
  | 'providerKeys.set'
  | 'providerKeys.clear'
  | 'remoteKey.set'
  | 'remoteKey.clear'
  | 'apiKeys.list'
  | 'apiKeys.create'
  | 'apiKeys.revoke'
  | 'apiKeys.updateLimits'
  | 'audit.list'
>;

/** What the operations on keys use: the providers' keys and what discovery found, the remote gateway's key, API keys and their audit log. */
export interface KeyDeps {
  readonly options: { readonly secrets: SecretStore };
  readonly catalog: Catalog;
  readonly providerKeys: ProviderKeys;
  readonly settings: SettingsStore;
  readonly apiKeys: ApiKeys;
  readonly keyManagement: KeyManagement;
  readonly audit: AuditLog;
  discoveryResults(): ReadonlyMap<string, DiscoveryResult>;
  refreshSandbox(): Promise<void>;
  refreshDiscovery(): Promise<DiscoveryResult[]>;
}

export function keyHandlers(core: KeyDeps): KeyOps {
  const keyedProvider = (slug: string) => {
    const provider = core.catalog.provider(slug);
    if (provider.simulated || provider.local) throw new GatewayError('bad_request', `${provider.name} needs no key`);
    return provider;
  };
  return {
    'providers.list': async () =>
      Promise.all(
        core.catalog
          .listProviders()
          .filter((p) => !p.simulated)
          .map(async (p) => {
            const state = await core.providerKeys.state(p.slug);
            const found = core.discoveryResults().get(p.slug);
            return {
              discovery: found ? { models: found.models, error: found.error, at: new Date(found.at).toISOString() } : null,
              slug: p.slug,
              name: p.name,
              wire_format: p.wire_format,
              base_url: p.base_url,
              local: p.local,
              needs_key: !p.local,
              key_set: state.key_set,
              key_updated_at: state.key_updated_at,
              key_origin: state.key_origin,
            };
          }),
      ),
    'providerKeys.set': async ({ provider, key }) => {
      keyedProvider(provider);
      try {
        const state = await core.providerKeys.set(provider, key);
        await core.refreshSandbox();
        // Learn the provider's models in the background; the key is saved either way.
        core.refreshDiscovery().catch(() => undefined);
        return state;
      } catch (error) {
        if (error instanceof SecretStoreError) throw new GatewayError('unavailable', error.message);
        throw error;
      }
    },
    'providerKeys.clear': async ({ provider }) => {
      keyedProvider(provider);
      const state = await core.providerKeys.clear(provider);
      await core.refreshSandbox();
      return state;
    },
    'remoteKey.set': async ({ key }) => {
      const gateway = core.settings.get().gateway;
      if (gateway.mode !== 'remote')
        throw new GatewayError('bad_request', 'Connect to a remote gateway first: its key is bound to its address and sent nowhere else');
      try {
        await core.options.secrets.set(REMOTE_KEY_SECRET, encodeBoundKey(key, originOf(gateway.base_url)!));
      } catch (error) {
        if (error instanceof SecretStoreError) throw new GatewayError('unavailable', error.message);
        throw error;
      }
      return { key_set: true };
    },
    'remoteKey.clear': async () => {
      await core.options.secrets.delete(REMOTE_KEY_SECRET);
      return { key_set: false };
    },
    'apiKeys.list': async () => core.apiKeys.list(),
    'apiKeys.create': async (input, context) => core.keyManagement.create(actorOf(context, 'apiKeys.create'), input),
    'apiKeys.revoke': async ({ id }, context) => core.keyManagement.revoke(actorOf(context, 'apiKeys.revoke'), id),
    'apiKeys.updateLimits': async ({ id, ...limits }, context) => core.keyManagement.updateLimits(actorOf(context, 'apiKeys.updateLimits'), id, limits),
    'audit.list': async (input) => core.audit.list(input),
  };
}
