import { appendFileSync, cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../test-support/temp-core';
import { ApiKeys } from '../keys/api-keys';
import { SqliteKeyStore } from '../store/sqlite/key-store';
import { SqliteLegacySpend } from '../store/sqlite/legacy-spend';
import { silentLogger, type Logger } from '../logger';
import { Store } from '../store/sqlite/database';
import { RequestLog, type RequestLogEntry } from './request-log';

const DAY = 86_400_000;

function entry(keyId: string | null, cost: number | null, at: number, extra: Partial<RequestLogEntry> = {}): RequestLogEntry {
  return {
    id: `r-${at}-${Math.random()}`,
    created_at: new Date(at).toISOString(),
    key_id: keyId,
    session_id: null,
    user: null,
    model: 'a/b',
    provider: 'P',
    endpoint_id: 'e',
    status: 200,
    latency_ms: 1.5,
    input_tokens: 10,
    output_tokens: 1,
    cost,
    methods: { q: 'logprobs' },
    question_count: 1,
    ...extra,
  };
}

function recordingLogger(): { logger: Logger; warnings: string[] } {
  const warnings: string[] = [];
  const logger = { ...silentLogger, warn: (_obj: unknown, message?: string) => warnings.push(String(message)) } as unknown as Logger;
  return { logger, warnings };
}

describe('request log', () => {
  let now = Date.parse('2026-03-01T12:00:00Z');
  const clock = { now: () => now };
  let dir = tempDir();
  let logDir = join(dir.path, 'requests');
  let store: Store;

  const start = async (mode: 'write' | 'read' = 'write', logger: Logger = silentLogger) => {
    store = Store.open(join(dir.path, 'verdict.sqlite'));
    const log = await RequestLog.open({ dir: logDir, legacy: new SqliteLegacySpend(store), clock, logger, mode });
    const keys = ApiKeys.open(new SqliteKeyStore(store), clock);
    return { log, keys, store };
  };
  const stop = async (log: RequestLog, s: Store) => {
    await log.close();
    s.close();
  };
  /** A crash: what was written stays written, nothing else runs. */
  const crash = async (log: RequestLog, s: Store) => {
    await log.flush();
    s.close();
  };
  /** A data directory written by the previous version (node-sqlite3-wasm, spend in the log after its checkpoint). */
  const legacyDirectory = () => {
    cpSync(join(import.meta.dirname, '..', 'store', 'sqlite', 'fixtures', 'wasm-v9'), dir.path, { recursive: true });
  };
  const LEGACY_KEY = 'aaaaaaaaaaaa';
  const spentOf = async (keys: Promise<ApiKeys>, id: string) => (await (await keys).list()).find((k) => k.id === id)!.spent;

  afterEach(() => {
    dir.cleanup();
    dir = tempDir();
    logDir = join(dir.path, 'requests');
    now = Date.parse('2026-03-01T12:00:00Z');
  });

  it('appends one JSON line per request to a file per UTC day, readable only by the owner', async () => {
    const { log, store: s } = await start();
    log.append(entry('k1', 0.1, now, { session_id: 's1' }));
    log.append(entry('k1', 0.2, now + 1000));
    log.append(entry(null, null, now + DAY, { status: 404 }));
    await log.flush();
    expect(readdirSync(logDir).sort()).toEqual(['2026-03-01.ndjson', '2026-03-02.ndjson']);
    expect(statSync(join(logDir, '2026-03-01.ndjson')).mode & 0o777).toBe(0o600);
    const lines = readFileSync(join(logDir, '2026-03-01.ndjson'), 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as RequestLogEntry);
    expect(lines.map((l) => l.cost)).toEqual([0.1, 0.2]);
    expect(log.recent({ limit: 10 }).map((e) => e.status)).toEqual([404, 200, 200]);
    expect(log.recent({ limit: 10, sessionId: 's1' })).toHaveLength(1);
    await stop(log, s);
  });

  it('the spend an earlier version left in the log after its checkpoint is added once, and lines are no longer spend', async () => {
    legacyDirectory();
    // 0.25 archived + 0.5 folded up to the checkpoint + 0.125 + 0.0625 after it.
    let run = await start();
    expect(await spentOf(run.keys, LEGACY_KEY)).toBe(0.9375);
    run.log.append(entry(LEGACY_KEY, 5, now));
    await crash(run.log, run.store);
    for (let i = 0; i < 2; i += 1) {
      run = await start();
      expect(await spentOf(run.keys, LEGACY_KEY)).toBe(0.9375);
      await stop(run.log, run.store);
    }
  });

  it('the keys command (read mode) on an earlier data directory adds that spend once too, and writes no line', async () => {
    legacyDirectory();
    const before = readFileSync(join(logDir, '2026-11-20.ndjson'), 'utf8');
    let run = await start('read');
    expect(await spentOf(run.keys, LEGACY_KEY)).toBe(0.9375);
    run.log.append(entry(LEGACY_KEY, 9, now));
    await stop(run.log, run.store);
    expect(readFileSync(join(logDir, '2026-11-20.ndjson'), 'utf8')).toBe(before);
    run = await start();
    expect(await spentOf(run.keys, LEGACY_KEY)).toBe(0.9375);
    await stop(run.log, run.store);
  });

  it('a line of the earlier log that is not JSON is named in a warning and skipped; the others count', async () => {
    legacyDirectory();
    appendFileSync(join(logDir, '2026-11-20.ndjson'), `not json\n${JSON.stringify(entry(LEGACY_KEY, 0.5, now))}\n`);
    const { logger, warnings } = recordingLogger();
    const run = await start('write', logger);
    expect(warnings).toEqual([expect.stringMatching(/not JSON was skipped/)]);
    expect(await spentOf(run.keys, LEGACY_KEY)).toBe(1.4375);
    await stop(run.log, run.store);
  });

  it('a line cut short by a crash is closed off with a warning, so the next line is whole', async () => {
    let run = await start();
    run.log.append(entry('k1', 0.5, now));
    await crash(run.log, run.store);
    const file = join(logDir, '2026-03-01.ndjson');
    appendFileSync(file, '{"id":"torn","key_id":"');
    const { logger, warnings } = recordingLogger();
    run = await start('write', logger);
    expect(warnings.some((w) => /unfinished last line/.test(w))).toBe(true);
    run.log.append(entry('k1', 0.25, now));
    await stop(run.log, run.store);
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(() => JSON.parse(lines[2]!)).not.toThrow();
    expect(recordingLogger().warnings).toEqual([]);
    run = await start('write', logger);
    expect(warnings.filter((w) => /unfinished last line/.test(w))).toHaveLength(1);
    await stop(run.log, run.store);
  });

  it('a write that fails is reported, and the log carries on once the file can be written', async () => {
    const errors: string[] = [];
    const logger = { ...silentLogger, error: (_obj: unknown, message?: string) => errors.push(String(message)), warn: () => undefined } as unknown as Logger;
    const run = await start('write', logger);
    // The day's file cannot be opened for appending: a directory stands in its place.
    mkdirSync(join(logDir, '2026-03-01.ndjson'));
    run.log.append(entry('k1', 0.5, now));
    await run.log.flush();
    expect(errors).toEqual(['request log write failed']);
    rmSync(join(logDir, '2026-03-01.ndjson'), { recursive: true });
    run.log.append(entry('k1', 0.25, now));
    await run.log.flush();
    expect(readFileSync(join(logDir, '2026-03-01.ndjson'), 'utf8').trimEnd().split('\n')).toHaveLength(1);
    await stop(run.log, run.store);
  });

  it('day files past the retention period are removed', async () => {
    let run = await start();
    run.log.append(entry('k1', 0.5, now));
    await stop(run.log, run.store);
    now += 40 * DAY;
    run = await start();
    run.log.append(entry('k1', 0.25, now));
    await stop(run.log, run.store);
    now += DAY;
    run = await start();
    expect(readdirSync(logDir)).toEqual(['2026-04-10.ndjson']);
    await stop(run.log, run.store);
  });

  it('a server that keeps running removes them too, when it starts a new day', async () => {
    const run = await start();
    await run.log.append(entry('k1', 0.5, now));
    now += 40 * DAY;
    expect(readdirSync(logDir)).toEqual(['2026-03-01.ndjson']);
    await run.log.append(entry('k1', 0.25, now));
    expect(readdirSync(logDir)).toEqual(['2026-04-10.ndjson']);
    await stop(run.log, run.store);
  });
});
