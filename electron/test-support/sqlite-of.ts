import type { Core } from '../core';
import type { Store } from '../core/store/sqlite/database';
import type { SqliteStorage } from '../core/store/sqlite/storage';
import { storageOf } from './internals-of';

/** The SQLite file under a core, for tests that look at the file itself; a core on PostgreSQL has none. */
export function sqliteOf(core: Core): Store {
  const storage = storageOf(core) as Partial<SqliteStorage>;
  if (storage.kind !== 'sqlite' || !storage.store) throw new Error(`This test looks at the SQLite file, and the core's data is in ${storage.where}`);
  return storage.store;
}
