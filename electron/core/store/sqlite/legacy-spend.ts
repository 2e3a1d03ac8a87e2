import type { LegacySpendStorage, LogPlace } from '../ports';
import type { Store } from './database';

/** Spend left in the request log by earlier versions, folded into `api_keys.spent` once (tables `request_log_legacy`, `request_log_checkpoint`). */
export class SqliteLegacySpend implements LegacySpendStorage {
  constructor(private readonly store: Store) {}

  async foldOnce(spendAfter: (checkpoint: LogPlace | null) => Map<string, number>): Promise<void> {
    const pending = () => this.store.get<{ folded: number }>('SELECT folded FROM request_log_legacy WHERE id = 1')?.folded === 0;
    if (!pending()) return;
    this.store.transaction(() => {
      if (!pending()) return;
      const checkpoint = this.store.get<LogPlace>('SELECT file, byte_offset AS offset FROM request_log_checkpoint WHERE id = 1') ?? null;
      for (const [key, usd] of spendAfter(checkpoint)) this.store.run('UPDATE api_keys SET spent = spent + ? WHERE id = ?', [usd, key]);
      this.store.run('UPDATE request_log_legacy SET folded = 1 WHERE id = 1');
    });
  }
}

/** A database that never had a legacy request log (Postgres, a new data directory). */
export const NO_LEGACY_SPEND: LegacySpendStorage = { foldOnce: async () => {} };
