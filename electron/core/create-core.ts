import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Catalog } from './catalog/catalog';
import { systemClock, type Clock } from './clock';
import { ApiKeys } from './keys/api-keys';
import { ProviderKeys } from './keys/provider-keys';
import type { SecretStore } from './keys/secret-store';
import { silentLogger, type Logger } from './logger';
import { createHandlers, type Handlers } from './operations';
import { SettingsStore } from './settings/settings';
import { Store } from './store/database';

export interface CoreOptions {
  dataDir: string;
  secrets: SecretStore;
  host: 'desktop' | 'browser';
  version: string;
  clock?: Clock;
  logger?: Logger;
}

/** The gateway core: one instance per host process, with every dependency passed in. */
export interface Core {
  readonly options: Readonly<CoreOptions>;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly store: Store;
  readonly catalog: Catalog;
  readonly apiKeys: ApiKeys;
  readonly providerKeys: ProviderKeys;
  readonly settings: SettingsStore;
  readonly handlers: Handlers;
  close(): void;
}

export const DATABASE_FILE = 'verdict.sqlite';

export function createCore(options: CoreOptions): Core {
  mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? silentLogger;
  const store = Store.open(join(options.dataDir, DATABASE_FILE));
  const partial = {
    options,
    clock,
    logger,
    store,
    catalog: new Catalog(),
    apiKeys: new ApiKeys(store, clock),
    providerKeys: new ProviderKeys(options.secrets, store, clock),
    settings: new SettingsStore(store),
    close: () => store.close(),
  };
  const core: Core = { ...partial, handlers: createHandlers(partial) };
  return core;
}
