import type { RefusalStorage, StoredRefusal } from '../ports';
import { SqliteChangeToken } from './change-token';
import type { Store } from './database';
import { ALL_REFUSALS, refusalValues, toRefusal, type RefusalRow } from '../refusal-rows';

/** The learned-capabilities domain's table (`endpoint_refusals`) in the SQLite file. */
export class SqliteRefusalStore implements RefusalStorage {
  private readonly token: SqliteChangeToken;

  constructor(private readonly store: Store) {
    this.token = new SqliteChangeToken(store);
  }

  async all(): Promise<StoredRefusal[]> {
    return this.store.all<RefusalRow>(ALL_REFUSALS).map(toRefusal);
  }

  async put(r: StoredRefusal): Promise<void> {
    this.store.run('INSERT OR REPLACE INTO endpoint_refusals (endpoint_id, parameter, message, learned_at) VALUES (?, ?, ?, ?)', refusalValues(r));
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
