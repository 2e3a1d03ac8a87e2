import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type TestPostgres } from '../test-support/postgres';
import { redisMissing, startRedis, type TestRedis } from '../test-support/redis';
import { ScriptedUpstream } from '../test-support/scripted-upstream';
import { bundled } from '../test-support/store-backends';
import { answer, JUDGE, teamInstance } from '../test-support/team';
import type { RunningServer } from './start-server';

/** One request of the load: which key, when it was sent and answered, how. Status 0: no answer within 5 s, or a broken connection. */
interface Sample {
  key: 'limited' | 'free';
  sent: number;
  ms: number;
  status: number;
  id: string | null;
  message: string | null;
}

/** Requests sent without pause by `workers` loops over the instances, half on a key with limits, half on one without, until stopped. */
function load(urls: string[], keys: { limited: string; free: string }, workers = 4) {
  const samples: Sample[] = [];
  let running = true;
  const loop = async (w: number) => {
    for (let i = 0; running; i += 1) {
      const key = (w + i) % 2 === 0 ? 'limited' : 'free';
      const sent = Date.now();
      try {
        const response = await fetch(`${urls[(w + i) % urls.length]!}/api/alpha/decisions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${keys[key]}`, 'content-type': 'application/json' },
          body: JSON.stringify(JUDGE),
          signal: AbortSignal.timeout(5_000),
        });
        const body = (await response.json()) as { error?: { message: string } };
        const id = response.headers.get('x-request-id');
        samples.push({ key, sent, ms: Date.now() - sent, status: response.status, id, message: body.error?.message ?? null });
      } catch {
        samples.push({ key, sent, ms: Date.now() - sent, status: 0, id: null, message: null });
      }
    }
  };
  const loops = Array.from({ length: workers }, (_, w) => loop(w));
  return {
    samples,
    /** The samples sent from `from` on (ms since the epoch), by key. */
    since: (from: number, key: Sample['key']) => samples.filter((s) => s.sent >= from && s.key === key),
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;

/** ms from `from` to the first request answered 200 on `key` after which every one is: how long recovery took. */
function recoveredAfter(samples: Sample[], from: number, key: Sample['key']): number | null {
  const after = samples.filter((s) => s.key === key && s.sent >= from).sort((a, b) => a.sent - b.sent);
  const lastBad = after.findLastIndex((s) => s.status !== 200);
  const first = after[lastBad + 1];
  return first ? first.sent + first.ms - from : null;
}

/** Waits until the last ten requests on each key since `from` were answered, or `limitMs` and a second more have passed. */
async function settled(samples: Sample[], from: number, limitMs: number): Promise<void> {
  const answered = (key: Sample['key']) => {
    const after = samples.filter((s) => s.key === key && s.sent >= from);
    return after.length >= 10 && after.slice(-10).every((s) => s.status === 200);
  };
  while (!(answered('limited') && answered('free')) && Date.now() - from < limitMs + 1_000) await sleep(100);
}

const missing = redisMissing();

/**
 * Redis stopped, Redis frozen, Postgres stopped: each under load on two instances, with the statuses,
 * times and recoveries a team relies on (issue: 503 within 200 ms, never a hang or a 500; back within
 * 5 s of Redis and 10 s of Postgres, without a restart; nothing acknowledged lost).
 */
describe.skipIf(missing !== null)(`a team's server when Redis or Postgres goes away${missing ? ` (skipped: ${missing})` : ''}`, () => {
  let postgres: TestPostgres;
  let redis: TestRedis & { close(): Promise<void> };
  let upstream: ScriptedUpstream;
  let backup: ScriptedUpstream;
  let database: string;
  const servers: RunningServer[] = [];
  const dirs: { cleanup(): void }[] = [];

  beforeAll(async () => {
    [postgres, redis, upstream, backup] = await Promise.all([
      startPostgres({ durable: true }),
      startRedis(),
      new ScriptedUpstream().start(),
      new ScriptedUpstream().start(),
    ]);
    upstream.always(answer(5));
    backup.always(answer(5));
    database = await postgres.createDatabase('faults');
    for (let i = 0; i < 2; i += 1) {
      // A request that needs Redis waits at most this long for it: 100 ms here (150 by default), so the
      // 200 ms held below leaves room for the request's own work on a machine running other suites.
      const made = await teamInstance({ database, redis: redis.url, upstream, backup, redisTimeoutMs: 100 });
      servers.push(made.server);
      dirs.push(...made.dirs);
    }
  }, 90_000);
  afterAll(async () => {
    for (const s of servers) await s.close();
    await upstream?.close();
    await backup?.close();
    await redis?.close();
    postgres?.stop();
    for (const d of dirs) d.cleanup();
  });

  it('under load: Redis stopped, then frozen, then Postgres stopped; refused fast with 503, never 500 or a hang, back without a restart, nothing acknowledged lost', async () => {
    const limited = await servers[0]!.core.apiKeys.create('limited', 'standard', { credit_limit: 100, rate_limit_rpm: 1_000_000 });
    const free = await servers[0]!.core.apiKeys.create('free', 'standard');
    // Each instance answers the limited key once before the load: its first admission opens Redis's
    // connection and compiles its scripts, which on two busy cores can outlast the 100 ms command timeout.
    for (const s of servers) {
      const first = await fetch(`${s.url}/api/alpha/decisions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${limited.key}`, 'content-type': 'application/json' },
        body: JSON.stringify(JUDGE),
      });
      expect(first.status).toBe(200);
    }
    const traffic = load(
      servers.map((s) => s.url),
      { limited: limited.key, free: free.key },
    );
    const report: string[] = [];
    try {
      await sleep(500);
      expect(traffic.samples.filter((s) => s.status !== 200)).toEqual([]);

      // Redis stopped: requests on the limited key are refused at once; the free key is answered.
      await redis.stop();
      const stopped = Date.now();
      await sleep(1_500);
      const whileStopped = traffic.since(stopped + 200, 'limited');
      expect(whileStopped.length).toBeGreaterThan(5);
      expect(new Set(whileStopped.map((s) => s.status))).toEqual(new Set([503]));
      expect(whileStopped[0]!.message).toMatch(/Redis/);
      // The issue's 200 ms for the typical refusal; one slower on a machine running other suites beside this one, not a hang.
      expect(median(whileStopped.map((s) => s.ms))).toBeLessThan(200);
      expect(Math.max(...whileStopped.map((s) => s.ms))).toBeLessThan(1_000);
      expect(new Set(traffic.since(stopped, 'free').map((s) => s.status))).toEqual(new Set([200]));
      await redis.start();
      const redisBack = Date.now();
      await settled(traffic.samples, redisBack, 5_000);
      const afterStop = recoveredAfter(traffic.samples, redisBack, 'limited');
      report.push(`Redis stopped: slowest refusal ${Math.max(...whileStopped.map((s) => s.ms))} ms; answered again ${afterStop} ms after it was back`);
      expect(afterStop).not.toBeNull();
      expect(afterStop!).toBeLessThanOrEqual(5_000);

      // Redis frozen (SIGSTOP): connections open, nothing answered; the command timeout refuses.
      redis.freeze();
      const frozen = Date.now();
      let whileFrozen: Sample[];
      try {
        await sleep(1_500);
        whileFrozen = traffic.since(frozen + 200, 'limited');
      } finally {
        redis.thaw();
      }
      expect(whileFrozen.length).toBeGreaterThan(5);
      expect(whileFrozen.filter((s) => s.status !== 503).map((s) => [s.status, s.message])).toEqual([]);
      const slowest = Math.max(...whileFrozen.map((s) => s.ms));
      expect(
        traffic
          .since(frozen, 'free')
          .filter((s) => s.status !== 200 && s.sent < frozen + 1_500)
          .map((s) => [s.status, s.message]),
      ).toEqual([]);
      const thawed = Date.now();
      await settled(traffic.samples, thawed, 5_000);
      const afterFreeze = recoveredAfter(traffic.samples, thawed, 'limited');
      report.push(`Redis frozen: slowest refusal ${slowest} ms; answered again ${afterFreeze} ms after it thawed`);
      // The command timeout (100 ms) and the request's own work, on two shared cores; the slowest never a hang.
      expect(median(whileFrozen.map((s) => s.ms))).toBeLessThan(200);
      expect(slowest).toBeLessThan(1_500);
      expect(afterFreeze).not.toBeNull();
      expect(afterFreeze!).toBeLessThanOrEqual(5_000);

      // Postgres stopped: answers cannot be charged, so none is given; 503, at once.
      postgres.down();
      const down = Date.now();
      await sleep(1_500);
      const whileDown = [...traffic.since(down + 200, 'limited'), ...traffic.since(down + 200, 'free')];
      expect(whileDown.length).toBeGreaterThan(5);
      expect(new Set(whileDown.map((s) => s.status))).toEqual(new Set([503]));
      postgres.up();
      const pgBack = Date.now();
      await settled(traffic.samples, pgBack, 10_000);
      const afterDown = Math.max(recoveredAfter(traffic.samples, pgBack, 'limited') ?? Infinity, recoveredAfter(traffic.samples, pgBack, 'free') ?? Infinity);
      report.push(`Postgres stopped: slowest refusal ${Math.max(...whileDown.map((s) => s.ms))} ms; answered again ${afterDown} ms after it was back`);
      expect(afterDown).toBeLessThanOrEqual(10_000);
    } finally {
      await traffic.stop();
      process.stdout.write(`${report.join('\n')}\n`);
    }
    // Never a 500, never a hang.
    const statuses = new Set(traffic.samples.map((s) => s.status));
    expect([...statuses].sort()).toEqual([200, 503]);

    // Every answered request is charged in the ledger and written in an instance's request log.
    const answered = traffic.samples.filter((s) => s.status === 200).map((s) => s.id);
    expect(answered.every((id) => id !== null)).toBe(true);
    const client = new pg.Client({ connectionString: database });
    await client.connect();
    const ledger = new Set((await client.query<{ request_id: string }>('SELECT request_id FROM spend_ledger')).rows.map((r) => r.request_id));
    await client.end();
    for (const s of servers) await s.core.requestLog.flush();
    const logged = new Set(servers.flatMap((s) => s.core.requestLog.recent({ limit: 100_000 }).map((e) => e.id)));
    expect(answered.filter((id) => !ledger.has(id!))).toEqual([]);
    expect(answered.filter((id) => !logged.has(id!))).toEqual([]);
  }, 90_000);

  it('with the per-instance fallback, Redis away: a rate limit holds each live instance to its share; credit is still refused; without it, refused', async () => {
    const made = await teamInstance({ database, redis: redis.url, upstream, backup, redisTimeoutMs: 150, redisFallback: 'local' });
    dirs.push(...made.dirs);
    const local = made.server;
    try {
      const live = 3;
      const rated = (await servers[0]!.core.apiKeys.create('rated', 'standard', { credit_limit: null, rate_limit_rpm: 60 })).key;
      const credited = (await servers[0]!.core.apiKeys.create('credited', 'standard', { credit_limit: 5, rate_limit_rpm: null })).key;
      const ask = (server: RunningServer, key: string) =>
        fetch(`${server.url}/api/alpha/decisions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify(JUDGE),
        });
      await redis.stop();
      try {
        const statuses = [];
        for (let i = 0; i < 30; i += 1) statuses.push((await ask(local, rated)).status);
        expect(statuses.filter((s) => s === 200)).toHaveLength(60 / live);
        expect(statuses.filter((s) => s === 429)).toHaveLength(30 - 60 / live);
        const refused = await ask(local, rated);
        expect(refused.headers.get('retry-after')).not.toBeNull();
        expect(((await refused.json()) as { error: { message: string } }).error.message).toContain('this instance admits its share, 20');
        expect((await ask(local, credited)).status).toBe(503);
        // The instances without the fallback refuse the same key.
        expect((await ask(servers[1]!, rated)).status).toBe(503);
      } finally {
        await redis.start();
      }
    } finally {
      await local.close();
    }
  }, 60_000);

  it('kill -9 of one of three instances under load: every request any of them answered is in the ledger and in a request log, and every charge has its line', async () => {
    const program = await bundled(join(import.meta.dirname, '..', 'test-support', 'team-process.ts'));
    const child = spawn(process.execPath, [program.script, database, redis.url, upstream.url, backup.url], { stdio: ['ignore', 'pipe', 'inherit'] });
    const [childUrl, childData] = await new Promise<[string, string]>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        const ready = /^ready (\S+) (\S+)$/m.exec(chunk.toString());
        if (ready) resolve([ready[1]!, ready[2]!]);
      });
      child.once('exit', () => reject(new Error('the instance ended before it was ready')));
    });
    try {
      const limited = await servers[0]!.core.apiKeys.create('limited under kill', 'standard', { credit_limit: 100, rate_limit_rpm: 1_000_000 });
      const free = await servers[0]!.core.apiKeys.create('free under kill', 'standard');
      const traffic = load([...servers.map((s) => s.url), childUrl], { limited: limited.key, free: free.key }, 6);
      await sleep(1_500);
      child.kill('SIGKILL');
      const killed = Date.now();
      await sleep(1_000);
      await traffic.stop();
      const answered = traffic.samples.filter((s) => s.status === 200);
      // The killed instance answered some before it died; the others went on answering after.
      expect(answered.filter((s) => s.sent + s.ms > killed).length).toBeGreaterThan(10);
      expect(new Set(traffic.samples.map((s) => s.status)).has(500)).toBe(false);

      const client = new pg.Client({ connectionString: database });
      await client.connect();
      const ledger = new Set((await client.query<{ request_id: string }>('SELECT request_id FROM spend_ledger')).rows.map((r) => r.request_id));
      // This test's charges: every one of them, answered or cut off by the kill, has its request-log line.
      const charged = (
        await client.query<{ request_id: string }>('SELECT request_id FROM spend_ledger WHERE key_id = ANY($1)', [[limited.info.id, free.info.id]])
      ).rows.map((r) => r.request_id);
      await client.end();
      const logged = new Set(servers.flatMap((s) => s.core.requestLog.recent({ limit: 100_000 }).map((e) => e.id)));
      const childLog = join(childData, 'requests');
      for (const file of readdirSync(childLog))
        for (const line of readFileSync(join(childLog, file), 'utf8').split('\n')) if (line.trim()) logged.add((JSON.parse(line) as { id: string }).id);
      const ids = answered.map((s) => s.id!);
      expect(ids.filter((id) => !ledger.has(id))).toEqual([]);
      expect(ids.filter((id) => !logged.has(id))).toEqual([]);
      expect(charged.length).toBeGreaterThanOrEqual(ids.length);
      expect(charged.filter((id) => !logged.has(id))).toEqual([]);
    } finally {
      child.kill('SIGKILL');
      program.remove();
    }
  }, 60_000);
});
