import type { Presence } from '../ports';
import type { PgDatabase } from './database';

/** The database's clock in ms: every instance's beat is timed by the same clock. */
const NOW = 'extract(epoch FROM clock_timestamp()) * 1000';

/** A team's instances on one Postgres, each beating a row of its own. */
export class PgPresence implements Presence {
  constructor(private readonly db: PgDatabase) {}

  async beat(instance: string): Promise<void> {
    await this.db.query(`INSERT INTO instances (name, seen_at) VALUES ($1, ${NOW}) ON CONFLICT (name) DO UPDATE SET seen_at = excluded.seen_at`, [instance]);
  }

  async live(withinMs: number): Promise<number> {
    const [row] = await this.db.query<{ n: string }>(`SELECT count(*) AS n FROM instances WHERE seen_at > ${NOW} - $1`, [withinMs]);
    return Number(row?.n ?? 0);
  }

  async leave(instance: string): Promise<void> {
    await this.db.query('DELETE FROM instances WHERE name = $1', [instance]);
  }
}
