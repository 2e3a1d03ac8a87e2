import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, readSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Clock } from '../clock';
import type { Logger } from '../logger';
import type { LegacySpendStorage, LogPlace, StoredRun } from '../store/ports';

/**
 * One line of the API request log: metadata only. Callers may require zero data retention, so
 * neither the state, the questions nor the answers are written.
 */
export interface RequestLogEntry extends Omit<StoredRun, 'created_at' | 'origin' | 'request' | 'response' | 'set_id' | 'label' | 'routing'> {
  /** ISO time. */
  created_at: string;
  /** The shape the caller spoke, when not the spec's: `openai`, `systemone` or `ai-gateway`. */
  route?: string;
}

/** A place in the log: a day's file and a byte offset in it. */
export type LogPosition = LogPlace;

/** The request log's folder in a data directory. */
export const REQUEST_LOG_DIR = 'requests';

const FILE_PATTERN = /^(\d{4}-\d{2}-\d{2})\.ndjson$/;
const DAY_MS = 86_400_000;

/**
 * The log of public API calls: one JSON line per request, one file per UTC day under
 * `<data dir>/requests/`, kept `retentionDays`. Each line is written before its answer leaves: the
 * lines appended in one turn of the event loop go out in one write to the day's open file, and each
 * caller waits for it (a killed process loses no line of an answer that left; an operating system
 * crash may lose the last, as no fsync is made). Nothing is read back on the hot path.
 *
 * What keys spent is not kept here but in SQLite (`api_keys.spent`, written before each answer
 * leaves). Earlier versions kept it here, folded into SQLite up to a checkpoint; the lines after
 * that checkpoint are added to `api_keys.spent` once, by the first process of this version to open
 * the data directory.
 */
export class RequestLog {
  /** The day's file, open for appending. */
  private open: { file: string; fd: number } | null = null;
  private closed = false;
  private readonly listeners = new Set<(entry: RequestLogEntry) => void>();
  /** Lines appended in this turn, by day file, and the promise their write keeps. */
  private batch: { lines: Map<string, string[]>; written: Promise<void>; resolve: () => void } | null = null;

  private constructor(
    readonly dir: string,
    private readonly clock: Clock,
    private readonly logger: Logger,
    readonly mode: 'write' | 'read',
    private readonly retentionDays: number,
  ) {}

  /**
   * Opens the log. `write` mode is for the process that serves requests; `read` mode (key
   * management from the command line, next to a running server) never writes the log.
   */
  static async open(options: {
    dir: string;
    legacy: LegacySpendStorage;
    clock: Clock;
    logger: Logger;
    mode?: 'write' | 'read';
    retentionDays?: number;
  }): Promise<RequestLog> {
    const mode = options.mode ?? 'write';
    if (mode === 'write') mkdirSync(options.dir, { recursive: true, mode: 0o700 });
    const log = new RequestLog(options.dir, options.clock, options.logger, mode, options.retentionDays ?? 30);
    await options.legacy.foldOnce((checkpoint) => log.spendAfter(checkpoint));
    if (mode === 'write') {
      log.terminateTornLine();
      log.removeExpired();
    }
    return log;
  }

  /** Calls `listener` with every entry appended from now on (the server's metrics); returns how to stop. */
  onAppend(listener: (entry: RequestLogEntry) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Queues the line; it is written with the other lines of this turn of the event loop, in one write
   * to a file kept open (no fsync), when the returned promise resolves: an answer sent after that is
   * in the log even if the process is killed the next moment (the operating system has it). Under
   * load a turn answers many requests, which then share the write (one a request was 6% of a loaded
   * server's work).
   */
  append(entry: RequestLogEntry): Promise<void> {
    if (this.closed || this.mode === 'read') return Promise.resolve();
    for (const listener of this.listeners) listener(entry);
    const file = `${entry.created_at.slice(0, 10)}.ndjson`;
    if (this.batch === null) {
      let resolve!: () => void;
      const written = new Promise<void>((r) => (resolve = r));
      this.batch = { lines: new Map(), written, resolve };
      setImmediate(() => this.writeBatch());
    }
    const lines = this.batch.lines.get(file);
    if (lines) lines.push(JSON.stringify(entry));
    else this.batch.lines.set(file, [JSON.stringify(entry)]);
    return this.batch.written;
  }

  /** Writes the lines queued in this turn now. */
  flush(): Promise<void> {
    this.writeBatch();
    return Promise.resolve();
  }

  /** The queued lines, one write per day file (a batch spans two days only at midnight). */
  private writeBatch(): void {
    const batch = this.batch;
    if (batch === null) return;
    this.batch = null;
    for (const [file, lines] of batch.lines) {
      const bytes = Buffer.from(`${lines.join('\n')}\n`, 'utf8');
      try {
        const fd = this.fileFor(file);
        for (let done = 0; done < bytes.length;) done += writeSync(fd, bytes, done, bytes.length - done);
      } catch (error) {
        // The lines are lost (what they cost is in the keys' spend); the next write opens the file again.
        this.logger.error({ err: error, file, lines: lines.length }, 'request log write failed');
        this.closeFile();
      }
    }
    batch.resolve();
  }

  private fileFor(file: string): number {
    if (this.open?.file === file) return this.open.fd;
    this.closeFile();
    // A new day's file (or the same one again after a failed write): days past the retention go now, not only at start.
    this.removeExpired();
    const fd = openSync(join(this.dir, file), 'a', 0o600);
    this.open = { file, fd };
    return fd;
  }

  private closeFile(): void {
    if (this.open) closeSync(this.open.fd);
    this.open = null;
  }

  private files(): string[] {
    try {
      return readdirSync(this.dir)
        .filter((f) => FILE_PATTERN.test(f))
        .sort();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
  }

  /** USD per key in lines an earlier version wrote after its checkpoint (for the keys' spend, once). */
  private spendAfter(checkpoint: LogPosition | null): Map<string, number> {
    const spend = new Map<string, number>();
    for (const file of this.files()) {
      if (checkpoint && file < checkpoint.file) continue;
      const from = checkpoint && file === checkpoint.file ? checkpoint.offset : 0;
      readLines(join(this.dir, file), from, (line, lineNumber) => {
        let entry: Partial<RequestLogEntry>;
        try {
          entry = JSON.parse(line) as Partial<RequestLogEntry>;
        } catch {
          this.logger.warn({ file, line: lineNumber }, 'request log: a line that is not JSON was skipped (line counted from the checkpoint)');
          return;
        }
        if (typeof entry.key_id === 'string' && typeof entry.cost === 'number' && Number.isFinite(entry.cost)) {
          spend.set(entry.key_id, (spend.get(entry.key_id) ?? 0) + entry.cost);
        }
      });
    }
    return spend;
  }

  /** A last line cut short by a crash is ended, so the next line appended is not glued to it. */
  private terminateTornLine(): void {
    const last = this.files().at(-1);
    if (!last) return;
    const path = join(this.dir, last);
    const size = statSync(path, { throwIfNoEntry: false })?.size ?? 0;
    if (size === 0) return;
    const fd = openSync(path, 'r+');
    try {
      const byte = Buffer.alloc(1);
      readSync(fd, byte, 0, 1, size - 1);
      if (byte[0] === 0x0a) return;
      this.logger.warn({ file: last }, 'request log: an unfinished last line (from a crash) was closed off');
      writeSync(fd, '\n', size);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }

  /** Day files older than the retention period are removed. */
  private removeExpired(): void {
    const cutoff = new Date(this.clock.now() - this.retentionDays * DAY_MS).toISOString().slice(0, 10);
    for (const file of this.files()) {
      const day = FILE_PATTERN.exec(file)![1]!;
      if (day < cutoff) rmSync(join(this.dir, file), { force: true });
    }
  }

  /** The newest entries first, optionally only one session's (for the inspector and tests). */
  recent(options: { limit: number; sessionId?: string }): RequestLogEntry[] {
    const out: RequestLogEntry[] = [];
    for (const file of this.files().reverse()) {
      const entries: RequestLogEntry[] = [];
      readLines(join(this.dir, file), 0, (line) => {
        try {
          const entry = JSON.parse(line) as RequestLogEntry;
          if (options.sessionId === undefined || entry.session_id === options.sessionId) entries.push(entry);
        } catch {
          // Skipped: a torn last line after a crash.
        }
      });
      out.push(...entries.reverse());
      if (out.length >= options.limit) break;
    }
    return out.slice(0, options.limit);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.writeBatch();
    this.closed = true;
    this.closeFile();
  }
}

/** Calls `onLine` for each complete line from `from`; returns the offset after the last complete line. */
function readLines(path: string, from: number, onLine: (line: string, lineNumber: number) => void): number {
  let size: number;
  try {
    size = statSync(path).size;
  } catch {
    return from;
  }
  if (size <= from) return Math.min(from, size);
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(size - from);
    let read = 0;
    while (read < buffer.length) {
      const n = readSync(fd, buffer, read, buffer.length - read, from + read);
      if (n === 0) break;
      read += n;
    }
    const lastNewline = buffer.lastIndexOf(0x0a, read - 1);
    if (lastNewline < 0) return from;
    const text = buffer.toString('utf8', 0, lastNewline);
    let lineNumber = 0;
    for (const line of text.split('\n')) {
      lineNumber += 1;
      if (line.trim() !== '') onLine(line, lineNumber);
    }
    return from + lastNewline + 1;
  } finally {
    closeSync(fd);
  }
}
