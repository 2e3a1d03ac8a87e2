import type { PgChangeToken } from './change-token';
import type { PgDatabase } from './database';

/** A store whose table is watched on a NOTIFY channel: its change token moves with every process's writes. */
export abstract class PgWatchedStore {
  protected constructor(
    protected readonly db: PgDatabase,
    protected readonly token: PgChangeToken,
  ) {}

  changeToken(): number {
    return this.token.read();
  }
}
