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
    if (this.db.isOpen) this.db.close();
  }
}
