import sqlite from 'node-sqlite3-wasm';

// The package is CommonJS: Node's ESM loader only offers its default export.
const { Database } = sqlite;
type Database = InstanceType<typeof Database>;
import { MIGRATIONS } from './migrations';

export type Row = Record<string, unknown>;
export type Params = readonly (string | number | bigint | null | Uint8Array)[];

/**
 * The embedded SQLite file. Rollback journal with synchronous=FULL: a write that returned has
 * reached the disk, and a crash at any point leaves the last committed state.
 */
export class Store {
  private readonly db: Database;
  private pending: { sql: string; params: Params }[] = [];
  private flushTimer: NodeJS.Timeout | null = null;
  /** Write-behind batches flush this often at the latest. */
  static readonly FLUSH_DELAY_MS = 250;
  static readonly FLUSH_ROWS = 1000;

  private constructor(readonly path: string) {
    this.db = new Database(path);
  }

  static open(path: string): Store {
    const store = new Store(path);
    try {
      store.db.exec('PRAGMA journal_mode = DELETE; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;');
      store.migrate();
    } catch (error) {
      store.close();
      throw error;
    }
    return store;
  }

  private migrate(): void {
    const row = this.db.get('PRAGMA user_version') as { user_version: number };
    const current = row.user_version;
    if (current > MIGRATIONS.length) {
      throw new Error(
        `The data file ${this.path} was written by a newer Verdict (schema ${current}, this build knows ${MIGRATIONS.length}); it was left untouched.`,
      );
    }
    for (let version = current; version < MIGRATIONS.length; version += 1) {
      this.transaction(() => {
        this.db.exec(MIGRATIONS[version]!);
        this.db.exec(`PRAGMA user_version = ${version + 1}`);
      });
    }
  }

  all<T = Row>(sql: string, params: Params = []): T[] {
    return this.db.all(sql, params as unknown[] as never) as T[];
  }

  get<T = Row>(sql: string, params: Params = []): T | undefined {
    return (this.db.get(sql, params as unknown[] as never) ?? undefined) as T | undefined;
  }

  run(sql: string, params: Params = []): { changes: number } {
    const info = this.db.run(sql, params as unknown[] as never);
    return { changes: Number(info.changes) };
  }

  /**
   * Queues a write to run with others in one transaction within FLUSH_DELAY_MS. For high-volume
   * records (attempts, the request log) where one fsync per row would cost more than the request:
   * a crash can lose the last quarter second of them, never settings, keys or saved work.
   */
  later(sql: string, params: Params = []): void {
    this.pending.push({ sql, params });
    if (this.pending.length >= Store.FLUSH_ROWS) this.flush();
    else if (!this.flushTimer) {
      this.flushTimer = setTimeout(() => this.flush(), Store.FLUSH_DELAY_MS);
      this.flushTimer.unref();
    }
  }

  /** Writes every queued row now, in one transaction. */
  flush(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    if (this.pending.length === 0 || !this.db.isOpen) return;
    const rows = this.pending;
    this.pending = [];
    // One prepared statement per distinct SQL for the whole batch: parsing SQL per row costs more than the row.
    const statements = new Map<string, ReturnType<Database['prepare']>>();
    try {
      this.transaction(() => {
        for (const row of rows) {
          let statement = statements.get(row.sql);
          if (!statement) {
            statement = this.db.prepare(row.sql);
            statements.set(row.sql, statement);
          }
          statement.run(row.params as unknown[] as never);
        }
      });
    } finally {
      for (const statement of statements.values()) statement.finalize();
    }
  }

  /** Runs `work` atomically; nested calls join the outer transaction. */
  transaction<T>(work: () => T): T {
    if (this.db.inTransaction) return work();
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const result = work();
      this.db.exec('COMMIT');
      return result;
    } catch (error) {
      this.db.exec('ROLLBACK');
      throw error;
    }
  }

  close(): void {
    if (!this.db.isOpen) return;
    this.flush();
    this.db.close();
  }
}
