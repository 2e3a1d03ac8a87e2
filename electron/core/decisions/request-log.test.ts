import { appendFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../test-support/temp-core';
import { ApiKeys } from '../keys/api-keys';
import { silentLogger, type Logger } from '../logger';
import { Store } from '../store/database';
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

  const start = (mode: 'write' | 'read' = 'write', logger: Logger = silentLogger) => {
    store = Store.open(join(dir.path, 'verdict.sqlite'));
    const log = RequestLog.open({ dir: logDir, store, clock, logger, mode });
    const keys = new ApiKeys(store, clock, () => log.unfoldedSpend());
    return { log, keys, store };
  };
  const stop = async (log: RequestLog, s: Store) => {
    await log.close();
    s.close();
  };
  /** A crash: what was written stays written, nothing else runs (no checkpoint, no close). */
  const crash = async (log: RequestLog, s: Store) => {
    await log.flush();
    clearInterval((log as unknown as { checkpointTimer: NodeJS.Timeout }).checkpointTimer);
    s.close();
  };

  afterEach(() => {
    dir.cleanup();
    dir = tempDir();
    logDir = join(dir.path, 'requests');
    now = Date.parse('2026-03-01T12:00:00Z');
  });

  it('appends one JSON line per request to a file per UTC day, readable only by the owner', async () => {
    const { log, store: s } = start();
    log.append(entry('k1', 0.1, now, { session_id: 's1' }));
    log.append(entry('k1', 0.2, now + 1000));
    log.append(entry(null, null, now + DAY, { status: 404 }));
    await log.flush();
    expect(readdirSync(logDir).sort()).toEqual(['2026-03-01.ndjson', '2026-03-02.ndjson']);
    expect(statSync(join(logDir, '2026-03-01.ndjson')).mode & 0o777).toBe(0o600);
    const lines = readFileSync(join(logDir, '2026-03-01.ndjson'), 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as RequestLogEntry);
    expect(lines.map((l) => l.cost)).toEqual([0.1, 0.2]);
    expect(log.recent({ limit: 10 }).map((e) => e.status)).toEqual([404, 200, 200]);
    expect(log.recent({ limit: 10, sessionId: 's1' })).toHaveLength(1);
    await stop(log, s);
  });

  it("a crash loses none of a key's spend that reached the log, and a restart counts it once", async () => {
    let run = start();
    const { info } = run.keys.create('job', 'standard', { credit_limit: 1, rate_limit_rpm: null });
    run.log.append(entry(info.id, 0.25, now));
    run.log.append(entry(info.id, 0.5, now));
    await crash(run.log, run.store);

    run = start();
    expect(run.keys.list()[0]!.spent).toBe(0.75);
    run.log.append(entry(info.id, 0.125, now));
    await stop(run.log, run.store);

    // Closed cleanly this time: the checkpoint covers every line, so nothing is counted twice.
    for (let i = 0; i < 2; i += 1) {
      run = start();
      expect(run.keys.list()[0]!.spent).toBe(0.875);
      await stop(run.log, run.store);
    }
    run = start();
    run.log.append(entry(info.id, 0.25, now));
    run.keys.addSpend(info.id, 0.25);
    expect(() => run.keys.admitCredit(info.id)).toThrow(/has spent \$1\.125 of its \$1 credit/);
    await stop(run.log, run.store);
  });

  it('a line cut short by a crash is skipped with a warning, and lines after it still count', async () => {
    let run = start();
    const { info } = run.keys.create('job', 'standard');
    run.log.append(entry(info.id, 0.5, now));
    await crash(run.log, run.store);
    const file = join(logDir, '2026-03-01.ndjson');
    appendFileSync(file, '{"id":"torn","key_id":"');
    const { logger, warnings } = recordingLogger();
    run = start('write', logger);
    expect(warnings.some((w) => /unfinished last line/.test(w))).toBe(true);
    run.log.append(entry(info.id, 0.25, now));
    await crash(run.log, run.store);
    // The torn fragment stays on its own line, so the next line is whole JSON.
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(() => JSON.parse(lines[2]!)).not.toThrow();

    const second = recordingLogger();
    run = start('write', second.logger);
    expect(run.keys.list()[0]!.spent).toBe(0.75);
    await stop(run.log, run.store);
  });

  it('a line that is not JSON is named in a warning and skipped; the others count', async () => {
    let run = start();
    const { info } = run.keys.create('job', 'standard');
    await stop(run.log, run.store);
    writeFileSync(join(logDir, '2026-03-02.ndjson'), `${JSON.stringify(entry(info.id, 0.5, now + DAY))}\nnot json\n${JSON.stringify(entry(info.id, 0.25, now + DAY))}\n`);
    const { logger, warnings } = recordingLogger();
    run = start('write', logger);
    expect(warnings).toEqual([expect.stringMatching(/not JSON was skipped/)]);
    expect(run.keys.list()[0]!.spent).toBe(0.75);
    await stop(run.log, run.store);
  });

  it('read mode (key management beside a running server) counts the unfolded spend and writes nothing', async () => {
    let run = start();
    const { info } = run.keys.create('job', 'standard');
    run.log.append(entry(info.id, 0.5, now));
    await crash(run.log, run.store);
    const before = readFileSync(join(logDir, '2026-03-01.ndjson'), 'utf8');

    run = start('read');
    expect(run.keys.list()[0]!.spent).toBe(0.5);
    run.log.append(entry(info.id, 9, now));
    await stop(run.log, run.store);
    expect(readFileSync(join(logDir, '2026-03-01.ndjson'), 'utf8')).toBe(before);

    // The writer then folds it exactly once.
    run = start();
    expect(run.keys.list()[0]!.spent).toBe(0.5);
    expect(run.store.get('SELECT spent_logged FROM api_keys')).toEqual({ spent_logged: 0.5 });
    await stop(run.log, run.store);
  });

  it('a write that fails is reported; its spend still counts, and the log carries on once the file can be written', async () => {
    const errors: string[] = [];
    const logger = { ...silentLogger, error: (_obj: unknown, message?: string) => errors.push(String(message)), warn: () => undefined } as unknown as Logger;
    const run = start('write', logger);
    const { info } = run.keys.create('job', 'standard');
    // The day's file cannot be opened for appending: a directory stands in its place.
    mkdirSync(join(logDir, '2026-03-01.ndjson'));
    run.log.append(entry(info.id, 0.5, now));
    await run.log.flush();
    expect(errors).toEqual(['request log write failed']);
    rmSync(join(logDir, '2026-03-01.ndjson'), { recursive: true });
    run.log.append(entry(info.id, 0.25, now));
    await run.log.checkpoint();
    expect(readFileSync(join(logDir, '2026-03-01.ndjson'), 'utf8').trimEnd().split('\n')).toHaveLength(1);
    expect(run.store.get('SELECT spent_logged FROM api_keys')).toEqual({ spent_logged: 0.75 });
    await stop(run.log, run.store);
  });

  it('day files past the retention period are removed once counted; their spend still counts', async () => {
    let run = start();
    const { info } = run.keys.create('job', 'standard');
    run.log.append(entry(info.id, 0.5, now));
    await stop(run.log, run.store);
    now += 40 * DAY;
    run = start();
    run.log.append(entry(info.id, 0.25, now));
    await stop(run.log, run.store);
    now += DAY;
    run = start();
    expect(readdirSync(logDir)).toEqual(['2026-04-10.ndjson']);
    expect(run.keys.list()[0]!.spent).toBe(0.75);
    await stop(run.log, run.store);
  });
});
