import type { RefusalStorage, StoredRefusal } from '../ports';
import { SqliteChangeToken } from './change-token';
import type { Store } from './database';

/** The learned-capabilities domain's table (`endpoint_refusals`) in the SQLite file. */
export class SqliteRefusalStore implements RefusalStorage {
  private readonly token: SqliteChangeToken;

  constructor(private readonly store: Store) {
    this.token = new SqliteChangeToken(store, { oncePerTurn: true });
  }

  async all(): Promise<StoredRefusal[]> {
    return this.store
      .all<{ endpoint_id: string; parameter: string; message: string; learned_at: string }>(
        'SELECT endpoint_id, parameter, message, learned_at FROM endpoint_refusals ORDER BY endpoint_id, parameter',
      )
      .map((r) => ({ endpointId: r.endpoint_id, parameter: r.parameter, message: r.message, learned_at: r.learned_at }));
  }

  async put(r: StoredRefusal): Promise<void> {
    this.store.run('INSERT OR REPLACE INTO endpoint_refusals (endpoint_id, parameter, message, learned_at) VALUES (?, ?, ?, ?)', [
      r.endpointId,
      r.parameter,
      r.message,
      r.learned_at,
    ]);
    this.token.moved();
  }

  async forget(endpointId: string): Promise<void> {
    this.store.run('DELETE FROM endpoint_refusals WHERE endpoint_id = ?', [endpointId]);
    this.token.moved();
  }

  changeToken(): number {
    return this.token.read();
  }
}
