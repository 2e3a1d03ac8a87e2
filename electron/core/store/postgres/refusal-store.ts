import type { RefusalStorage, StoredRefusal } from '../ports';
import { PgChangeToken } from './change-token';
import type { PgDatabase } from './database';
import { CHANNELS } from './migrations';
import { PgWatchedStore } from './watched-store';
import { ALL_REFUSALS, refusalValues, toRefusal, type RefusalRow } from '../refusal-rows';

/** The learned-capabilities domain's table in Postgres. */
export class PgRefusalStore extends PgWatchedStore implements RefusalStorage {
  static async open(db: PgDatabase): Promise<PgRefusalStore> {
    return new PgRefusalStore(db, await PgChangeToken.on(db, CHANNELS.refusals));
  }

  async all(): Promise<StoredRefusal[]> {
    return (await this.db.query<RefusalRow>(ALL_REFUSALS)).map(toRefusal);
  }

  async put(r: StoredRefusal): Promise<void> {
    await this.db.query(
      'INSERT INTO endpoint_refusals (endpoint_id, parameter, message, learned_at) VALUES ($1, $2, $3, $4) ON CONFLICT (endpoint_id, parameter) DO UPDATE SET message = excluded.message, learned_at = excluded.learned_at',
      refusalValues(r),
    );
    this.token.moved();
  }

  async forget(endpointId: string): Promise<void> {
    await this.db.query('DELETE FROM endpoint_refusals WHERE endpoint_id = $1', [endpointId]);
    this.token.moved();
  }
}
