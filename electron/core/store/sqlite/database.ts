import { rmSync, statSync } from 'node:fs';
import Database from 'libsql';
import { FlushTimer } from '../../flush-timer';
import { MIGRATIONS } from './migrations';

export type Row = Record<string, unknown>;
export type Params = readonly (string | number | bigint | null | Uint8Array)[];

type Connection = InstanceType<typeof Database>;
type Statement = ReturnType<Connection['prepare']>;

/** How long a write waits for another process's write (the `keys` command beside a server) before it fails. */
export const BUSY_TIMEOUT_MS = 5_000;
const STATEMENT_CACHE = 256;

/**
 * The embedded SQLite file (libSQL's build of SQLite, better-sqlite3's API). Write-ahead log with
 * synchronous=NORMAL: a write that returned is in the log, so a killed process loses nothing it
 * acknowledged and leaves nothing to clean up; readers never wait for writers, and another process
 * can write beside this one (it waits up to BUSY_TIMEOUT_MS for the lock). A power cut may lose the
 * last commits before the log was synced, never consistency.
 */
/**
 * SQLite's bare reasons for a file it cannot open ("file is not a database", "database disk image is
 * malformed") with the file's path and what to do; our own messages pass as they are.
 */
function unreadable(path: string, error: unknown): Error {
  const message = (error as Error).message ?? String(error);
  if (/not a database|malformed|disk image|file is encrypted|unable to open/i.test(message))
    return new Error(
      `The data file ${path} cannot be read as a Verdict database (SQLite says: ${message}). It was left as it is; restore it from a backup, or move it aside to start with an empty one.`,
      { cause: error },
    );
  return error instanceof Error ? error : new Error(message);
}

/** Where a grouped write's amount is (`params[at]`) and what it is summed by (a key's id, a key and day). */
export interface Summed {
  key: string;
  at: number;
}

export class Store {
  private readonly db: Connection;
  private readonly statements = new Map<string, Statement>();
  private pending: { sql: string; params: Params }[] = [];
  private grouped: { sql: string; params: Params }[] = [];
  /** The rows of the group whose amounts add up (`Summed`), by statement and key. */
  private groupedSums = new Map<string, Params[number][]>();
  private groupWaiters: { resolve: () => void; reject: (error: unknown) => void }[] = [];
  private groupScheduled = false;
  /** The file's data_version as last looked at, and when (performance.now()). */
  private look: { version: number; at: number } | null = null;
  /** A look at data_version stands for this long (ms). */
  static readonly SHARED_LOOK_MS = 5;
  private sharedLookMs = Store.SHARED_LOOK_MS;
  /** Write-behind batches flush this often at the latest. */
  static readonly FLUSH_DELAY_MS = 250;
  static readonly FLUSH_ROWS = 1000;
  private readonly flushTimer = new FlushTimer(Store.FLUSH_DELAY_MS, () => this.flush());

  private constructor(
    readonly path: string,
    readonly readOnly: boolean,
  ) {
    this.db = new Database(path, { timeout: BUSY_TIMEOUT_MS, ...(readOnly ? { readonly: true, fileMustExist: true } : {}) });
  }

  /**
   * Opens the file, migrating it in place to this build's schema. `readOnly` (the source of a store
   * copy) opens it for reading only and migrates nothing: a file of an older schema is refused,
   * saying how to bring it up to date, rather than changed. `sharedLookMs` sets how long a look at
   * data_version stands (SHARED_LOOK_MS; tests widen it to hold a look still).
   */
  static open(path: string, options: { readOnly?: boolean; sharedLookMs?: number } = {}): Store {
    if (!options.readOnly) removeStaleLockDirectory(path);
    let store: Store;
    try {
      store = new Store(path, options.readOnly ?? false);
      if (options.sharedLookMs !== undefined) store.sharedLookMs = options.sharedLookMs;
    } catch (error) {
      throw unreadable(path, error);
    }
    try {
      store.db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
      if (store.readOnly) {
        store.checkVersion();
        return store;
      }
      // WAL is recorded in the file: a file from the earlier store (rollback journal) switches here, once.
      store.db.exec('PRAGMA journal_mode = WAL');
      store.db.exec('PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;');
      store.migrate();
    } catch (error) {
      store.close();
      throw unreadable(path, error);
    }
    return store;
  }

  /** A file opened only to be read must be of this build's schema: nothing here migrates it. */
  private checkVersion(): void {
    const current = this.get<{ user_version: number }>('PRAGMA user_version')!.user_version;
    if (current > MIGRATIONS.length)
      throw new Error(
        `The data file ${this.path} was written by a newer Verdict (schema ${current}, this build knows ${MIGRATIONS.length}); it was left untouched.`,
      );
    if (current < MIGRATIONS.length)
      throw new Error(
        `The data file ${this.path} is of an older Verdict (schema ${current}, this build's is ${MIGRATIONS.length}) and is only read here, never changed: start this version once on its data directory (npm run serve -- --data-dir <dir>), which upgrades it, then copy again.`,
      );
  }

  private migrate(): void {
    const current = this.get<{ user_version: number }>('PRAGMA user_version')!.user_version;
    if (current > MIGRATIONS.length) {
      throw new Error(
        `The data file ${this.path} was written by a newer Verdict (schema ${current}, this build knows ${MIGRATIONS.length}); it was left untouched.`,
      );
    }
    for (let version = current; version < MIGRATIONS.length; version += 1) {
      this.transaction(() => {
        // Another process (a second start beside this one) may have migrated meanwhile.
        if (this.get<{ user_version: number }>('PRAGMA user_version')!.user_version !== version) return;
        this.db.exec(MIGRATIONS[version]!);
        this.db.exec(`PRAGMA user_version = ${version + 1}`);
      });
    }
  }

  private statement(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      if (this.statements.size >= STATEMENT_CACHE) this.statements.clear();
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  all<T = Row>(sql: string, params: Params = []): T[] {
    const rows = this.statement(sql).all(params as unknown[]) as Row[];
    for (const row of rows) {
      // Blobs come back as ArrayBuffer from all() (Buffer from get()); callers see Buffers either way.
      for (const column in row) if (row[column] instanceof ArrayBuffer) row[column] = Buffer.from(row[column]);
    }
    return rows as T[];
  }

  get<T = Row>(sql: string, params: Params = []): T | undefined {
    const row = this.statement(sql).get(params as unknown[]) as (Row & { _metadata?: unknown }) | undefined;
    if (row) delete row._metadata;
    return row as T | undefined;
  }

  run(sql: string, params: Params = []): { changes: number } {
    const info = this.statement(sql).run(params as unknown[]);
    return { changes: Number(info.changes) };
  }

  /**
   * Queues a write to run with others in one transaction within FLUSH_DELAY_MS. For high-volume
   * records (metrics, usage stamps) that nobody was promised: a crash can lose the last quarter
   * second of them, never settings, keys, spend or saved work.
   */
  later(sql: string, params: Params = []): void {
    this.pending.push({ sql, params });
    if (this.pending.length >= Store.FLUSH_ROWS) this.flush();
    else this.flushTimer.arm();
  }

  /** Writes every queued row now, in one transaction. */
  flush(): void {
    this.flushTimer.disarm();
    if (this.pending.length === 0 || !this.db.open) return;
    const rows = this.pending;
    this.pending = [];
    this.transaction(() => {
      for (const row of rows) this.run(row.sql, row.params);
    });
  }

  /**
   * Group commit: queues a write for one transaction with every other write queued in this turn of
   * the event loop, and resolves once that transaction is committed. Requests that must not answer
   * before their write is durable (a charge) await it; many of them share one commit. With `summed`,
   * a write that adds an amount (`spent = spent + ?`) is merged into the same statement queued for
   * the same key in this group: one row written with the amounts' sum.
   */
  commit(sql: string, params: Params = [], summed?: Summed): Promise<void> {
    this.group(sql, params, summed);
    return new Promise<void>((resolve, reject) => this.groupWaiters.push({ resolve, reject }));
  }

  /** Queues a write for the next group commit without waiting for it (`summed` as in `commit`). */
  commitSoon(sql: string, params: Params = [], summed?: Summed): void {
    this.group(sql, params, summed);
  }

  private group(sql: string, params: Params, summed: Summed | undefined): void {
    if (summed) {
      const id = `${summed.key}\u0000${sql}`;
      const queued = this.groupedSums.get(id);
      if (queued) queued[summed.at] = Number(queued[summed.at]) + Number(params[summed.at]);
      else {
        const own = [...params];
        this.groupedSums.set(id, own);
        this.grouped.push({ sql, params: own });
      }
    } else this.grouped.push({ sql, params });
    if (!this.groupScheduled) {
      this.groupScheduled = true;
      setImmediate(() => this.commitGroup());
    }
  }

  /** Commits the write-behind rows and the pending group now. */
  flushNow(): void {
    this.flush();
    this.commitGroup();
  }

  private commitGroup(): void {
    this.groupScheduled = false;
    const rows = this.grouped;
    const waiters = this.groupWaiters;
    this.grouped = [];
    this.groupWaiters = [];
    this.groupedSums.clear();
    if (rows.length === 0) return;
    try {
      if (!this.db.open) throw new Error('the data file is closed');
      this.transaction(() => {
        for (const row of rows) this.run(row.sql, row.params);
      });
    } catch (error) {
      for (const waiter of waiters) waiter.reject(error);
      return;
    }
    for (const waiter of waiters) waiter.resolve();
  }

  /** Runs `work` atomically (BEGIN IMMEDIATE: the write lock is taken first); nested calls join the outer transaction. */
  transaction<T>(work: () => T): T {
    if (this.db.inTransaction) return work();
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const result = work();
      this.db.exec('COMMIT');
      return result;
    } catch (error) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw error;
    }
  }

  /**
   * A counter that triggers move on every write to a group of tables, by any connection (migration
   * of the `revisions` table): 'results' for evaluation results and dataset items, 'items' for
   * dataset items alone. Caches of what is read from them are kept against it.
   */
  revision(name: 'results' | 'items'): number {
    return this.get<{ n: number }>('SELECT n FROM revisions WHERE name = ?', [name])!.n;
  }

  /**
   * Changes whenever another connection (another process) commits to the file. A look stands for
   * every port that asks within 5 ms of it: each look is a statement through SQLite (a few µs), and
   * a request's key, settings and refusal checks, and every request of a busy server in those 5 ms,
   * then share one (looked at each turn of the event loop, it was 3.6% of a loaded server's work).
   * What another process committed (a key revoked from the command line, a setting changed in the
   * desktop app beside a server) is seen by the requests checked from 5 ms after it on, as if they
   * had come 5 ms earlier. This connection's own writes move the ports' tokens at once.
   */
  dataVersion(): number {
    const now = performance.now();
    if (this.look !== null && now - this.look.at <= this.sharedLookMs) return this.look.version;
    const version = this.get<{ data_version: number }>('PRAGMA data_version')!.data_version;
    this.look = { version, at: now };
    return version;
  }

  close(): void {
    if (!this.db.open) return;
    this.flush();
    this.commitGroup();
    this.statements.clear();
    this.db.close();
  }
}

/**
 * The earlier store (node-sqlite3-wasm) locked the file by creating `<file>.lock/`, which a killed
 * process left behind and which then refused every start. SQLite's own locks die with the process;
 * the directory is only that leftover, so it is removed.
 */
function removeStaleLockDirectory(path: string): void {
  const lock = `${path}.lock`;
  if (statSync(lock, { throwIfNoEntry: false })?.isDirectory()) rmSync(lock, { recursive: true, force: true });
}
