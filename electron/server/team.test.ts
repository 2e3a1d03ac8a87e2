import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundled } from '../test-support/store-backends';
import { sharedPostgres, type SharedPostgres } from '../test-support/shared-postgres';
import { redisMissing, startRedis, type TestRedis } from '../test-support/redis';
import { ScriptedUpstream } from '../test-support/scripted-upstream';
import { answer, JUDGE, teamInstance } from '../test-support/team';
import { ERROR_BODY } from '../test-support/wire-fixtures';
import { CLIENT_HEADER, sessionCookie } from './inspector-api';
import type { RunningServer } from './start-server';
import { AS_DESKTOP } from '../test-support/temp-core';

const missing = redisMissing();
/** How long an evaluation item's claim lasts unrenewed on the spread runs' instances. */
const CLAIM_MS = 4_000;

/** Three instances of the server on one Postgres and one Redis, as a team runs them behind a load balancer. */
describe.skipIf(missing !== null)(`a team's server: three instances, one Postgres, one Redis${missing ? ` (skipped: ${missing})` : ''}`, () => {
  let postgres: SharedPostgres;
  let redis: TestRedis & { close(): Promise<void> };
  let upstream: ScriptedUpstream;
  let backup: ScriptedUpstream;
  const servers: RunningServer[] = [];
  const dirs: { cleanup(): void; path: string }[] = [];
  let database: string;

  /** One more instance on the team's Postgres and Redis; closed after the tests unless `own`. */
  async function instance(options: { redisTimeoutMs?: number; own?: boolean } = {}): Promise<RunningServer> {
    const { server, dirs: made } = await teamInstance({ database, redis: redis.url, upstream, backup, redisTimeoutMs: options.redisTimeoutMs });
    dirs.push(...made);
    if (!options.own) servers.push(server);
    return server;
  }

  beforeAll(async () => {
    [postgres, redis, upstream, backup] = await Promise.all([sharedPostgres(), startRedis(), new ScriptedUpstream().start(), new ScriptedUpstream().start()]);
    upstream.always(answer(0));
    backup.always(answer(0));
    database = await postgres.createDatabase('team');
    for (let i = 0; i < 3; i += 1) await instance();
  }, 90_000);
  afterAll(async () => {
    for (const s of servers) await s.close();
    await upstream?.close();
    await backup?.close();
    await redis?.close();
    await postgres?.stop();
    for (const d of dirs) d.cleanup();
  });

  const ask = (server: RunningServer, key: string) =>
    fetch(`${server.url}/api/alpha/decisions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(JUDGE),
    });

  interface Reviewer {
    name: string;
    /** who answered, as a review keeps it */
    label: string;
    op(server: RunningServer, name: string, input: unknown): Promise<{ status: number; body: unknown }>;
  }
  /** A new management key signed in to the web UI through `server`: its session works on every instance (the cookie named for each one's port). */
  async function reviewer(server: RunningServer, name: string): Promise<Reviewer> {
    const { info, key } = await server.core.apiKeys.create(name, 'management');
    const signedIn = await fetch(`${server.url}/api/inspector/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [CLIENT_HEADER]: 'renderer' },
      body: JSON.stringify({ key }),
    });
    expect(signedIn.status).toBe(200);
    const token = new RegExp(`${sessionCookie(server.url)}=([^;]+)`).exec(signedIn.headers.get('set-cookie') ?? '')![1]!;
    return {
      name,
      label: `${name} (${info.id})`,
      async op(at, op, input) {
        const response = await fetch(`${at.url}/api/inspector/${op}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [CLIENT_HEADER]: 'renderer', cookie: `${sessionCookie(at.url)}=${token}` },
          body: JSON.stringify(input),
        });
        return { status: response.status, body: await response.json() };
      },
    };
  }

  it('three instances started together on an empty database apply its schema once and make one first management key', async () => {
    const fresh = await postgres.createDatabase('fresh_team');
    const started = await Promise.all([0, 1, 2].map(() => teamInstance({ database: fresh, redis: redis.url, upstream, backup })));
    try {
      expect(started.filter((s) => s.server.initialManagementKey !== undefined)).toHaveLength(1);
      const keys = await started[2]!.server.core.storage.keys.all();
      expect(keys.map((k) => [k.name, k.kind])).toEqual([['Initial management key', 'management']]);
    } finally {
      for (const s of started) {
        await s.server.close();
        for (const d of s.dirs) d.cleanup();
      }
    }
  });

  it('a key created through one instance works through all; revoked through one, it is refused by all on their next request', async () => {
    const { info, key } = await servers[0]!.core.apiKeys.create('shared', 'standard', { credit_limit: 10, rate_limit_rpm: 1000 });
    for (const s of servers) expect((await ask(s, key)).status).toBe(200);
    await servers[1]!.core.apiKeys.revoke(info.id);
    for (const s of servers) expect((await ask(s, key)).status).toBe(401);
  });

  it("one capture rule gathers every instance's traffic into one dataset, and its daily cap holds across them", async () => {
    const { info, key } = await servers[0]!.core.apiKeys.create('captured', 'standard');
    const made = await servers[0]!.core.handlers['captures.create'](
      { name: 'team traffic', key_ids: [info.id], sample_rate: 1, daily_cap: 7, retention_days: 30, keep_images: false },
      AS_DESKTOP,
    );
    // The others read the rules again within seconds; here at once.
    for (const s of servers) await s.core.captures.refresh();
    for (let round = 0; round < 3; round += 1) for (const s of servers) expect((await ask(s, key)).status).toBe(200);
    await Promise.all(servers.map((s) => s.core.captureTap.flush()));
    const rules = await servers[2]!.core.handlers['captures.list']({});
    expect(rules.find((r) => r.id === made.id)).toMatchObject({ captured_today: 7, captured_total: 7 });
    const items = await servers[1]!.core.handlers['datasets.items']({ dataset_id: made.dataset_id, offset: 0, limit: 20 });
    expect(items.total).toBe(7);
    expect(new Set(items.items.map((i) => i.position)).size).toBe(7);
    // Each captured request once, whichever instance wrote it.
    const predictions = await servers[0]!.core.captures.predictions(made.dataset_id, null);
    expect(new Set(predictions.map((p) => p.request_id)).size).toBe(7);
  });

  it('revoked while Redis restarts (its generations gone), the key is still refused by every instance', async () => {
    const { info, key } = await servers[0]!.core.apiKeys.create('through a restart', 'standard', { credit_limit: 10, rate_limit_rpm: 1000 });
    for (const s of servers) expect((await ask(s, key)).status).toBe(200);
    await redis.stop();
    try {
      await servers[2]!.core.apiKeys.revoke(info.id);
    } finally {
      await redis.start();
    }
    // Redis came back empty: nothing there says the key changed; the database does.
    for (const s of servers) {
      let status = 0;
      for (let i = 0; i < 30 && (status === 0 || status === 503); i += 1) {
        status = (await ask(s, key)).status;
        if (status === 503) await new Promise((r) => setTimeout(r, 100));
      }
      expect(status).toBe(401);
    }
    // Every instance back on Redis before the next test (they reconnect within a second).
    for (const s of servers)
      for (let i = 0; i < 50; i += 1) {
        if (
          await s.core.admission.ping().then(
            () => true,
            () => false,
          )
        )
          break;
        await new Promise((r) => setTimeout(r, 100));
      }
  });

  it('150 requests at once over the three at 60 a minute: exactly 60 answered, 90 told to come back with Retry-After', async () => {
    const { key } = await servers[0]!.core.apiKeys.create('sixty', 'standard', { credit_limit: null, rate_limit_rpm: 60 });
    const responses = await Promise.all(Array.from({ length: 150 }, (_, i) => ask(servers[i % 3]!, key)));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(60);
    expect(statuses.filter((s) => s === 429)).toHaveLength(90);
    const waits = responses.filter((r) => r.status === 429).map((r) => Number(r.headers.get('retry-after')));
    expect(waits.every((w) => w >= 1 && w <= 60)).toBe(true);
  });

  it('50 requests at once against a credit that fits 5 of their worst cases: exactly 5 answered, and the spend stays within the limit', async () => {
    // The most one request may cost, as the server holds it (from a key that cannot afford even one).
    const probe = (await servers[0]!.core.apiKeys.create('probe', 'standard', { credit_limit: 1e-9, rate_limit_rpm: null })).key;
    const refused = (await (await ask(servers[0]!, probe)).json()) as { error: { metadata: { request_max_cost: number } } };
    const worst = refused.error.metadata.request_max_cost;
    const limit = Number((5.5 * worst).toFixed(9));
    const { info, key } = await servers[1]!.core.apiKeys.create('tight', 'standard', { credit_limit: limit, rate_limit_rpm: null });
    // Slow answers: every hold is still held when the last of the fifty is admitted.
    upstream.always(answer(1500));
    try {
      const responses = await Promise.all(Array.from({ length: 50 }, (_, i) => ask(servers[i % 3]!, key)));
      const statuses = responses.map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(5);
      expect(statuses.filter((s) => s === 402)).toHaveLength(45);
      const spent = (await servers[2]!.core.storage.keys.all()).find((k) => k.id === info.id)!.spent;
      expect(spent).toBeGreaterThan(0);
      expect(spent).toBeLessThanOrEqual(limit);
      // Each instance lists the same spend: the ledger holds every instance's charges.
      for (const s of servers.slice(0, 3)) expect((await s.core.apiKeys.list()).find((k) => k.id === info.id)!.spent).toBeCloseTo(spent, 6);
    } finally {
      upstream.always(answer(0));
    }
  });

  it('Redis frozen: a request on a key with limits is refused with 503 at once, one without limits is answered; thawed, both are', async () => {
    const limited = (await servers[0]!.core.apiKeys.create('limited', 'standard', { credit_limit: 5, rate_limit_rpm: 600 })).key;
    const free = (await servers[0]!.core.apiKeys.create('free', 'standard')).key;
    // An instance with the issue's command timeout.
    const quick = await instance({ redisTimeoutMs: 150 });
    expect((await fetch(`${quick.url}/api/v1/models`, { headers: { authorization: `Bearer ${limited}` } })).status).toBe(200);
    redis.freeze();
    try {
      const started = Date.now();
      const refused = await fetch(`${quick.url}/api/v1/models`, { headers: { authorization: `Bearer ${limited}` } });
      expect(refused.status).toBe(503);
      expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(
        /did not answer; requests on keys with limits are refused until it does/,
      );
      expect(Date.now() - started).toBeLessThan(1_000);
      expect((await fetch(`${quick.url}/api/v1/models`, { headers: { authorization: `Bearer ${free}` } })).status).toBe(200);
      // Kept in a load balancer's rotation: keys without limits are still answered.
      const ready = await fetch(`${quick.url}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toMatchObject({ status: 'degraded', database: { ok: true }, redis: { ok: false } });
    } finally {
      redis.thaw();
    }
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i += 1) {
      status = (await fetch(`${quick.url}/api/v1/models`, { headers: { authorization: `Bearer ${limited}` } })).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(200);
  });

  it("a provider's 429 with Retry-After seen by one instance cools that endpoint on all within a second: they send to the other provider", async () => {
    const { key } = await servers[0]!.core.apiKeys.create('cooling', 'standard');
    const split = { ...JUDGE, model: 'acme/split', provider: { sort: 'price' } };
    const send = (server: RunningServer) =>
      fetch(`${server.url}/api/alpha/decisions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(split),
      });
    const acme = servers[0]!.core.catalog.endpointsOf('acme/split').find((e) => e.provider.slug === 'acme')!;
    // Before: the cheaper provider answers, through any instance.
    const before = upstream.received.length;
    expect((await send(servers[2]!)).status).toBe(200);
    expect(upstream.received.length).toBe(before + 1);

    upstream.script({
      kind: 'respond',
      status: 429,
      headers: { 'content-type': 'application/json', 'retry-after': '30' },
      chunks: [ERROR_BODY.openai('Rate limit reached for split-1')],
    });
    const first = await send(servers[0]!);
    expect(first.status).toBe(200);
    expect(((await first.json()) as { provider: string }).provider).toBe('Backup');
    const seen = Date.now();
    for (const other of servers.slice(1, 3)) {
      while (other.core.health.snapshot(acme.id).cooldownUntil === null && Date.now() - seen < 5_000) await new Promise((r) => setTimeout(r, 10));
      expect(Date.now() - seen).toBeLessThan(1_000);
    }
    const [acmeBefore, backupBefore] = [upstream.received.length, backup.received.length];
    const answers = await Promise.all([1, 2, 1, 2].map((i) => send(servers[i]!)));
    for (const a of answers) expect(((await a.json()) as { provider: string }).provider).toBe('Backup');
    expect(upstream.received.length).toBe(acmeBefore);
    expect(backup.received.length).toBe(backupBefore + 4);
  });

  it("the endpoint listing from any instance counts every instance's attempts, with the same percentiles", async () => {
    const { key } = await servers[0]!.core.apiKeys.create('listing', 'standard');
    await Promise.all(Array.from({ length: 30 }, (_, i) => ask(servers[i % 3]!, key)));
    for (const s of servers) await s.core.metrics.sync();
    for (const s of servers) await s.core.metrics.sync();
    // Every request the judge's provider received was an attempt of one of the instances.
    const judge = upstream.received.filter((r) => (r.body as { model?: string }).model === 'judge-1').length;
    const listings = await Promise.all(
      servers.map(async (s) => {
        const [details] = await s.core.handlers['endpoints.details']({ model: 'acme/judge' });
        const listed = (await (await fetch(`${s.url}/api/v1/models/acme/judge/endpoints`, { headers: { authorization: `Bearer ${key}` } })).json()) as {
          data: { endpoints: { latency_last_30m: unknown; uptime_last_30m: unknown }[] };
        };
        return { attempts: details!.attempts_30m, figures: listed.data.endpoints[0] };
      }),
    );
    for (const l of listings) {
      expect(l.attempts).toBe(judge);
      expect(l.figures).toEqual(listings[0]!.figures);
    }
    expect(listings[0]!.figures!.latency_last_30m).not.toBeNull();
  });

  it('two reviewers asking at once through two instances never hold one item; their answers become the labels; a second answer through another instance is refused', async () => {
    const core = servers[0]!.core;
    const n = 24;
    const content = Array.from({ length: n }, (_, i) => JSON.stringify({ id: `reply-${i}`, state: `reply ${i}`, expected: {} })).join('\n');
    const imported = await core.handlers['datasets.import'](
      { name: 'to review', format: 'jsonl', content, questions: JUDGE.questions as never, valid_only: false, take_suggestions: false },
      AS_DESKTOP,
    );
    const datasetId = imported.dataset!.id;
    const set = await core.handlers['sets.save']({ name: 'lateness', request: JUDGE as never }, AS_DESKTOP);
    // Each reviewer a management key signed in to the web UI, as a browser would: Rita through instances 0 and 2, Sam through 1.
    const rita = await reviewer(servers[0]!, 'Rita');
    const sam = await reviewer(servers[1]!, 'Sam');
    const next = async (who: Reviewer, server: RunningServer) => {
      const { status, body } = await who.op(server, 'review.next', { dataset_id: datasetId, question_set_id: set.id, after: -1 });
      expect(status).toBe(200);
      return (body as { data: { item: { position: number } | null } }).data.item?.position ?? null;
    };
    // Given back through one instance, an item is the other reviewer's at once through another; another's lease is not one's to give.
    expect(await next(rita, servers[0]!)).toBe(0);
    expect(await next(sam, servers[1]!)).toBe(1);
    const release = (who: Reviewer, server: RunningServer, position: number) => who.op(server, 'review.release', { dataset_id: datasetId, position });
    expect((await release(sam, servers[1]!, 0)).body).toEqual({ ok: true, data: { released: false } });
    expect(await next(sam, servers[1]!)).toBe(1);
    expect((await release(rita, servers[2]!, 0)).body).toEqual({ ok: true, data: { released: true } });
    expect(await next(sam, servers[1]!)).toBe(0);
    const late = (position: number) => position % 3 === 0;
    const answered = new Map<number, string>();
    for (let round = 0; answered.size < n; round += 1) {
      expect(round).toBeLessThan(n);
      // Asking again and again at once: each time one item each, never the same one.
      let held: (number | null)[] = [];
      for (let ask = 0; ask < 4; ask += 1) {
        held = await Promise.all([next(rita, servers[ask % 2 === 0 ? 0 : 2]!), next(sam, servers[1]!)]);
        expect(held.every((p) => p !== null) ? held[0] !== held[1] : true, `round ${round}, ask ${ask}: ${JSON.stringify(held)}`).toBe(true);
      }
      await Promise.all(
        [rita, sam].map(async (who, i) => {
          const position = held[i];
          if (position === null || position === undefined) return;
          const server = servers[i === 0 ? 2 : 1]!;
          const { status, body } = await who.op(server, 'review.answer', {
            dataset_id: datasetId,
            position,
            answers: { late: late(position) },
            question_set_id: set.id,
          });
          expect(status, JSON.stringify(body)).toBe(200);
          expect((body as { data: { review: { reviewer: string } } }).data.review.reviewer).toBe(who.label);
          answered.set(position, who.name);
        }),
      );
    }
    // Both worked the queue; every item's expected answer is the one given, read through the third instance.
    expect(new Set(answered.values())).toEqual(new Set(['Rita', 'Sam']));
    const items = await servers[2]!.core.handlers['datasets.items']({ dataset_id: datasetId, offset: 0, limit: 100 });
    expect(items.items.map((i) => [i.position, i.expected])).toEqual(Array.from({ length: n }, (_, p) => [p, { late: late(p) }]));
    const reviews = await servers[2]!.core.storage.reviews.reviews(datasetId, null);
    expect(reviews.map((r) => [r.position, r.reviewer])).toEqual(
      [...answered.entries()].sort((a, b) => a[0] - b[0]).map(([p, who]) => [p, who === 'Rita' ? rita.label : sam.label]),
    );
    // Sam answers one of Rita's again, through an instance she did not use: refused, naming the item.
    const ritas = [...answered.entries()].find(([, who]) => who === 'Rita')![0];
    const again = await sam.op(servers[1]!, 'review.answer', {
      dataset_id: datasetId,
      position: ritas,
      answers: { late: !late(ritas) },
      question_set_id: set.id,
    });
    expect(again.status).toBe(400);
    expect((again.body as { error: { message: string } }).error.message).toBe(`item "reply-${ritas}" (position ${ritas}): already reviewed or labelled`);
    expect((await servers[0]!.core.datasets.item(datasetId, ritas)).expected).toEqual({ late: late(ritas) });
    expect(await next(sam, servers[1]!)).toBeNull();
  }, 60_000);

  describe('an evaluation run spread over the instances', () => {
    /** Instances on a database of their own, each with its own loopback provider: who sent what is counted there. */
    let db: string;
    const own: { server: RunningServer; upstream: ScriptedUpstream }[] = [];
    let datasetId: string;

    beforeAll(async () => {
      db = await postgres.createDatabase('spread');
      for (let i = 0; i < 3; i += 1) {
        const mine = await new ScriptedUpstream().start();
        mine.always(answer(300));
        // Claims of 4 s (20 s by default): a killed instance's items are taken within seconds here, by the same code.
        const { server, dirs: made } = await teamInstance({ database: db, redis: redis.url, upstream: mine, backup, claimLeaseMs: CLAIM_MS });
        dirs.push(...made);
        own.push({ server, upstream: mine });
        // Listening for runs spread by others (a server does so once discovery is done).
        await server.core.evalRuns.resumeInterrupted();
      }
      const items = Array.from({ length: 30 }, (_, i) => JSON.stringify({ id: `t${i}`, state: `ticket ${i}`, expected: { late: i % 2 === 0 } })).join('\n');
      const imported = await own[0]!.server.core.handlers['datasets.import'](
        { name: 'tickets', format: 'jsonl', content: items, questions: JUDGE.questions as never, valid_only: false, take_suggestions: false },
        AS_DESKTOP,
      );
      datasetId = imported.dataset!.id;
    }, 90_000);
    afterAll(async () => {
      for (const o of own) {
        await o.server.close();
        await o.upstream.close();
      }
    });

    const sent = () => own.map((o) => o.upstream.received.length);
    const start = (budget?: number) =>
      own[0]!.server.core.handlers['evals.start']({
        request: JUDGE as never,
        dataset_id: datasetId,
        variants: [{ model: 'acme/judge' }],
        concurrency: 2,
        ...(budget === undefined ? {} : { budget_usd: budget }),
      });
    const until = async (done: () => Promise<boolean>, ms: number) => {
      const end = Date.now() + ms;
      while (!(await done())) {
        if (Date.now() > end) throw new Error('not in time');
        await new Promise((r) => setTimeout(r, 100));
      }
    };

    it('every instance sends a share of its items; each item is sent once and stored once, and the run is done on all', async () => {
      const before = sent();
      const run = await start();
      await until(async () => (await own[2]!.server.core.evalRuns.get(run.id)).status !== 'running', 60_000);
      const shares = sent().map((n, i) => n - before[i]!);
      for (const share of shares) expect(share).toBeGreaterThan(0);
      // Thirty items, thirty requests: nobody sent an item another had.
      expect(shares.reduce((a, b) => a + b, 0)).toBe(30);
      const results = await own[1]!.server.core.storage.evalResults.results(run.id);
      expect(results.map((r) => r.position)).toEqual([...Array(30).keys()]);
      expect(results.every((r) => r.ok)).toBe(true);
      for (const o of own) expect(await o.server.core.evalRuns.get(run.id)).toMatchObject({ status: 'done', done: 30, failed: 0 });
    }, 90_000);

    it('paused through one instance, all stop; resumed through another, all go on and finish it', async () => {
      const run = await start();
      await until(async () => (await own[0]!.server.core.evalRuns.get(run.id)).done >= 3, 30_000);
      await own[1]!.server.core.evalRuns.pause(run.id);
      // Within a renewal every instance has stopped sending (requests in flight finish).
      await new Promise((r) => setTimeout(r, 3_000));
      const paused = sent();
      await new Promise((r) => setTimeout(r, 1_500));
      expect(sent()).toEqual(paused);
      expect((await own[0]!.server.core.evalRuns.get(run.id)).status).toBe('paused');
      await own[2]!.server.core.evalRuns.resume(run.id);
      await until(async () => (await own[0]!.server.core.evalRuns.get(run.id)).status === 'done', 60_000);
      const results = await own[0]!.server.core.storage.evalResults.results(run.id);
      expect(results.map((r) => r.position)).toEqual([...Array(30).keys()]);
    }, 120_000);

    it('a budget that fits a few requests holds over the three: the run stops on all, its spend within the budget', async () => {
      // The most one request may cost, as the server holds it (from a key that cannot afford even one).
      const probe = (await own[0]!.server.core.apiKeys.create('probe-eval', 'standard', { credit_limit: 1e-9, rate_limit_rpm: null })).key;
      const refused = (await (
        await fetch(`${own[0]!.server.url}/api/alpha/decisions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${probe}`, 'content-type': 'application/json' },
          body: JSON.stringify(JUDGE),
        })
      ).json()) as { error: { metadata: { request_max_cost: number } } };
      const worst = refused.error.metadata.request_max_cost;
      const budget = Number((4.5 * worst).toFixed(9));
      const before = sent();
      const run = await start(budget);
      await until(async () => (await own[1]!.server.core.evalRuns.get(run.id)).status !== 'running', 60_000);
      const stopped = await own[1]!.server.core.evalRuns.get(run.id);
      expect(stopped.status).toBe('budget');
      // Every request held its worst case in one place: what the three spent is within the budget (each alone would have spent up to it).
      expect(stopped.spent_usd).toBeGreaterThan(0);
      expect(stopped.spent_usd).toBeLessThanOrEqual(budget);
      // Every request sent was stored: none went out after the stop.
      const total = sent().reduce((a, n, i) => a + n - before[i]!, 0);
      expect(total).toBe(stopped.done);
      expect(total).toBeLessThan(30);
    }, 90_000);

    it('kill -9 of one instance mid-run: the others take its items within the lease; one result per item, at most its requests in flight sent twice', async () => {
      const childUpstream = await new ScriptedUpstream().start();
      childUpstream.always(answer(600));
      const program = await bundled(join(import.meta.dirname, '..', 'test-support', 'team-process.ts'));
      const child = spawn(process.execPath, [program.script, db, redis.url, childUpstream.url, backup.url, String(CLAIM_MS)], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      try {
        await new Promise<void>((resolve, reject) => {
          child.stdout.on('data', (chunk: Buffer) => (chunk.toString().includes('ready') ? resolve() : undefined));
          child.once('exit', () => reject(new Error('the instance ended before it was ready')));
        });
        const before = sent();
        const run = await start();
        // Killed once it is sending.
        await until(async () => childUpstream.received.length >= 2, 30_000);
        const inFlight = childUpstream.received.filter((r) => r.closedAt === null).length;
        child.kill('SIGKILL');
        const killedAt = Date.now();
        await until(async () => (await own[0]!.server.core.evalRuns.get(run.id)).status !== 'running', 60_000);
        // Its claims lapse (CLAIM_MS) and are taken within a poll; the run then finishes.
        expect(Date.now() - killedAt).toBeLessThan(CLAIM_MS + 10_000);
        const results = await own[0]!.server.core.storage.evalResults.results(run.id);
        expect(results.map((r) => r.position)).toEqual([...Array(30).keys()]);
        expect(results.every((r) => r.ok)).toBe(true);
        expect((await own[0]!.server.core.evalRuns.get(run.id)).status).toBe('done');
        const others = sent().reduce((a, n, i) => a + n - before[i]!, 0);
        const byChild = childUpstream.received.length;
        // Sent in all: thirty, and again at most what the killed one had in flight (claimed is in
        // flight: one item per request slot, its concurrency of 2).
        expect(inFlight).toBeGreaterThan(0);
        expect(others + byChild).toBeGreaterThanOrEqual(30);
        expect(others + byChild - 30).toBeLessThanOrEqual(2);
      } finally {
        if (child.exitCode === null) child.kill('SIGKILL');
        program.remove();
        await childUpstream.close();
      }
    }, 120_000);
  });
});
