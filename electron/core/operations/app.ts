import { decodeBoundKey } from '../keys/bound-key';
import type { Handlers } from './index';
import type { SecretStore } from '../keys/secret-store';
import type { SandboxFleet } from '../sandbox/fleet';
import type { SettingsStore } from '../settings/settings';
import { REMOTE_KEY_SECRET } from '../service';

type AppOps = Pick<Handlers, 'app.info' | 'settings.get' | 'settings.update'>;

/** What the app's operations use: the process's own facts, the settings and the simulated fleet. */
export interface AppDeps {
  readonly options: { readonly version: string; readonly host: 'desktop' | 'browser'; readonly dataDir: string; readonly secrets: SecretStore };
  readonly settings: SettingsStore;
  sandbox(): SandboxFleet | null;
  catalogProblem(): string | null;
  refreshSandbox(): Promise<void>;
}

export function appHandlers(core: AppDeps): AppOps {
  return {
    'app.info': async () => ({
      name: 'Verdict',
      version: core.options.version || '0.0.0',
      host: core.options.host,
      data_dir: core.options.dataDir,
      secret_storage: core.options.secrets.status(),
      sandbox_active: core.sandbox() !== null,
      gateway: {
        mode: core.settings.get().gateway.mode,
        base_url: (() => {
          const g = core.settings.get().gateway;
          return g.mode === 'remote' ? g.base_url : null;
        })(),
        ...(await (async () => {
          const stored = await core.options.secrets.get(REMOTE_KEY_SECRET);
          const origin = stored === undefined ? null : decodeBoundKey(stored).origin;
          return { key_set: stored !== undefined, key_origin: origin };
        })()),
      },
      catalog_problem: core.catalogProblem(),
    }),
    'settings.get': async () => core.settings.get(),
    'settings.update': async (patch) => {
      const next = await core.settings.update(patch);
      if (patch.sandbox !== undefined) await core.refreshSandbox();
      return next;
    },
  };
}
