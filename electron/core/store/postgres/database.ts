import type pg from 'pg';
import { StorageUnavailable } from '../ports';
import { PG_MIGRATIONS } from './migrations';

/** Errors that mean the server could not be reached or went away, not that the statement was wrong. */
const GONE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', '57P01', '57P02', '57P03', '08000', '08003', '08006']);

/** A connection failure as the port names it; any other error as it is. */
function unreachable(error: unknown): unknown {
  const e = error as { code?: string; message?: string };
  const lost =
    (e?.code !== undefined && GONE.has(e.code)) || /Connection terminated|connect ECONNREFUSED|timeout exceeded when trying to connect/i.test(e?.message ?? '');
  return lost ? new StorageUnavailable(`The database did not answer: ${e.message ?? String(error)}`, { cause: error }) : error;
}

/** Connections a process opens by default: the pool's, and one more that listens for change notices. */
export const DEFAULT_MAX_CONNECTIONS = 10;
/** The advisory lock key migrations are applied under ("verdict" in ASCII). */
const MIGRATION_LOCK = 0x76_65_72_64_69_63_74;

export interface PgOptions {
  /** Connections in all, the listener's included (default 10). */
  maxConnections?: number | undefined;
  /**
   * Where the connection that LISTENs for change notices goes, when not to the pool's URL: LISTEN needs
   * a session of its own, which a transaction-mode pooler (PgBouncer) does not keep, so behind one it
   * names the server itself.
   */
  listenUrl?: string | undefined;
  /**
   * Reads only (the source of a store copy): every session is read-only (`default_transaction_read_only`),
   * nothing is migrated (a database of an older schema is refused, saying how to bring it up to date)
   * and no change notices are listened for.
   */
  readOnly?: boolean | undefined;
}

/**
 * A team's database: PostgreSQL through a pool of `pg` connections. Migrations are applied at open,
 * in one transaction under a transaction-scoped advisory lock, so processes starting together (or
 * behind a connection pooler, where session locks do not hold) apply each version once. One more
 * connection LISTENs for the schema's change notices and reconnects when it is lost; notices missed
 * meanwhile are made up for by telling every listener that anything may have changed.
 *
 * Acknowledgements: a write that resolved was committed by the server (synchronous_commit as the
 * server is configured, on by default), so it survives a killed gateway and a killed database.
 */
export class PgDatabase {
  private listener: pg.Client | null = null;
  private readonly listeners = new Map<string, Set<(payload?: string) => void>>();
  private closed = false;

  private constructor(
    /** Where the listener connects. */
    private readonly url: string,
    readonly pool: pg.Pool,
    private readonly driver: typeof pg,
  ) {}

  static async open(url: string, options: PgOptions = {}): Promise<PgDatabase> {
    const max = Math.max(2, options.maxConnections ?? DEFAULT_MAX_CONNECTIONS) - 1;
    // Loaded only when a database is named: a server on its SQLite file does not carry the driver.
    const driver = (await import('pg')).default;
    const pool = new driver.Pool({ connectionString: url, max, ...(options.readOnly ? { options: '-c default_transaction_read_only=on' } : {}) });
    // An idle connection the server dropped is replaced on the next query; it must not end the process.
    pool.on('error', () => {});
    const db = new PgDatabase(options.listenUrl ?? url, pool, driver);
    try {
      if (options.readOnly) {
        await db.checkVersion();
        return db;
      }
      await db.migrate();
      await db.listen();
    } catch (error) {
      await db.close();
      throw error;
    }
    return db;
  }

  private async checkVersion(): Promise<void> {
    const schema = await this.query<{ version: number }>("SELECT version FROM verdict_schema WHERE to_regclass('verdict_schema') IS NOT NULL").catch(() => []);
    const current = schema[0]?.version ?? 0;
    if (current > PG_MIGRATIONS.length)
      throw new Error(`The database was written by a newer Verdict (schema ${current}, this build knows ${PG_MIGRATIONS.length}); it was left untouched.`);
    if (current < PG_MIGRATIONS.length)
      throw new Error(
        `The database is of ${current === 0 ? 'no Verdict at all' : `an older Verdict (schema ${current}, this build's is ${PG_MIGRATIONS.length})`} and is only read here, never changed: start this version once on it (npm run serve -- --database <url>), which upgrades it, then copy again.`,
      );
  }

  private async migrate(): Promise<void> {
    await this.transaction(async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      await client.query('CREATE TABLE IF NOT EXISTS verdict_schema (version integer NOT NULL)');
      const row = (await client.query<{ version: number }>('SELECT version FROM verdict_schema')).rows[0];
      const current = row?.version ?? 0;
      if (!row) await client.query('INSERT INTO verdict_schema (version) VALUES (0)');
      if (current > PG_MIGRATIONS.length) {
        throw new Error(`The database was written by a newer Verdict (schema ${current}, this build knows ${PG_MIGRATIONS.length}); it was left untouched.`);
      }
      for (let version = current; version < PG_MIGRATIONS.length; version += 1) await client.query(PG_MIGRATIONS[version]!);
      if (current < PG_MIGRATIONS.length) await client.query('UPDATE verdict_schema SET version = $1', [PG_MIGRATIONS.length]);
    });
  }

  private async listen(): Promise<void> {
    const client = new this.driver.Client({ connectionString: this.url });
    client.on('notification', (message) => this.notify(message.channel, message.payload));
    client.on('error', () => {
      if (this.listener !== client) return;
      this.listener = null;
      void client.end().catch(() => {});
      // Notices sent while nobody listened are lost: every listener reads again.
      for (const channel of this.listeners.keys()) this.notify(channel);
      this.reconnect();
    });
    await client.connect();
    for (const channel of this.listeners.keys()) await client.query(`LISTEN ${channel}`);
    this.listener = client;
  }

  private reconnect(attempt = 0): void {
    if (this.closed) return;
    const timer = setTimeout(
      () => {
        this.listen().catch(() => this.reconnect(attempt + 1));
      },
      Math.min(5_000, 100 * 2 ** attempt),
    );
    timer.unref();
  }

  private notify(channel: string, payload?: string): void {
    for (const listener of this.listeners.get(channel) ?? []) listener(payload);
  }

  /**
   * Calls `listener` after each committed change notice on `channel`, with its payload (none when
   * the listener reconnected and anything may have changed meanwhile).
   */
  async onNotice(channel: string, listener: (payload?: string) => void): Promise<void> {
    let set = this.listeners.get(channel);
    if (!set) {
      set = new Set();
      this.listeners.set(channel, set);
      await this.listener?.query(`LISTEN ${channel}`);
    }
    set.add(listener);
  }

  async query<T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<T[]> {
    try {
      return (await this.pool.query<T>(sql, params)).rows;
    } catch (error) {
      throw unreachable(error);
    }
  }

  /** Resolves when the server answers `SELECT 1` within `timeoutMs`; rejects with why not. */
  async ping(timeoutMs = 1000): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      await Promise.race([this.pool.query('SELECT 1'), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Runs `work` in one transaction on one connection; rolled back when it throws. */
  async transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect().catch((error: unknown) => {
      throw unreachable(error);
    });
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw unreachable(error);
    } finally {
      client.release();
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const listener = this.listener;
    this.listener = null;
    await listener?.end().catch(() => {});
    await this.pool.end();
  }
}

/**
 * Group commit: writes gathered over one turn of the event loop are committed together, and while
 * a commit is in flight, everything queued meanwhile waits and goes in the next one (one batch at a
 * time, in order). Alone, a write commits in the turn it was made; under load, batches grow instead
 * of queueing up one commit per turn. `add` resolves once the batch holding it is committed (a
 * charge an answer waits for), `addSoon` only queues. A failed commit rejects every write in it.
 */
export class TickBatch<T> {
  private items: T[] = [];
  private waiters: { resolve: () => void; reject: (error: unknown) => void }[] = [];
  private scheduled = false;
  private inFlight = false;
  /** The commit in flight (settled, never rejected), for `drain`. */
  private current: Promise<void> = Promise.resolve();

  constructor(private readonly commit: (items: T[]) => Promise<void>) {}

  add(item: T): Promise<void> {
    const done = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
    this.queue(item);
    return done;
  }

  addSoon(item: T): void {
    this.queue(item);
  }

  private queue(item: T): void {
    this.items.push(item);
    // A commit in flight takes what was queued meanwhile when it ends.
    if (this.scheduled || this.inFlight) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  private async flush(): Promise<void> {
    if (this.inFlight || this.items.length === 0) return;
    const items = this.items;
    const waiters = this.waiters;
    this.items = [];
    this.waiters = [];
    this.inFlight = true;
    let settled!: () => void;
    this.current = new Promise((resolve) => (settled = resolve));
    try {
      await this.commit(items);
      waiters.forEach((w) => w.resolve());
    } catch (error) {
      waiters.forEach((w) => w.reject(error));
      // Writes nobody waits for (request starts, usage stamps) would otherwise fail unseen.
      if (waiters.length === 0)
        process.emitWarning(`A batch of ${items.length} queued writes was not committed: ${(error as Error).message}`, 'VerdictStoreWarning');
    } finally {
      this.inFlight = false;
      settled();
    }
    if (this.items.length > 0) await this.flush();
  }

  /** Resolves once everything queued so far is committed (or failed). */
  async drain(): Promise<void> {
    while (this.scheduled || this.inFlight || this.items.length > 0) await (this.inFlight ? this.current : new Promise((r) => setImmediate(r)));
  }
}
