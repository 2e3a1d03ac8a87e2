import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../test-support/free-port';
import { redisMissing, startRedis, type TestRedis } from '../../../test-support/redis';
import { AdmissionUnavailable, RedisAdmission, type Admission, type AdmissionAsk } from './admission';

const missing = redisMissing();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let n = 0;
const ask = (over: Partial<AdmissionAsk> = {}): AdmissionAsk => ({
  keyId: 'key-a',
  generation: 0,
  rateLimitRpm: null,
  creditLimit: null,
  worst: 0,
  requestId: `req-${(n += 1)}`,
  ...over,
});

// A newcomer's machine without Redis skips these, saying why; CI installs Debian's redis-server and runs them.
describe.skipIf(missing !== null)(`shared admission on a real Redis${missing ? ` (skipped: ${missing})` : ''}`, () => {
  let redis: TestRedis & { close(): Promise<void> };
  /** Three clients, as three instances of the server would be. */
  let instances: RedisAdmission[];
  beforeAll(async () => {
    redis = await startRedis();
    // A generous timeout here: these tests share two cores with the others (the frozen-Redis test sets its own).
    instances = await Promise.all([0, 1, 2].map(() => RedisAdmission.open(redis.url, { windowMs: 1000, leaseMs: 300, commandTimeoutMs: 5_000 })));
  }, 20_000);
  /** Scripts Redis has run so far (admissions, settles, seeds), from its command statistics. */
  const scriptCalls = async () => {
    const client = new Redis(redis.url);
    try {
      const stats = await client.info('commandstats');
      return [...stats.matchAll(/^cmdstat_(?:evalsha|eval):calls=(\d+)/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
    } finally {
      client.disconnect();
    }
  };
  afterAll(async () => {
    await Promise.all(instances?.map((i) => i.close()) ?? []);
    await redis?.close();
  });

  it('reads what Redis says of itself: this one evicts nothing and keeps no append-only file', () => {
    expect(instances[0]!.settings).toEqual({ evictionPolicy: 'noeviction', appendOnly: false });
  });

  it('a Redis that may evict keys is refused at start, naming the setting to change', async () => {
    const evicting = await startRedis(['--maxmemory-policy', 'allkeys-lru', '--appendonly', 'yes']);
    try {
      await expect(RedisAdmission.open(evicting.url)).rejects.toThrow(/may evict keys \(maxmemory-policy allkeys-lru\).*Set maxmemory-policy noeviction/);
    } finally {
      await evicting.close();
    }
  });

  it('a Redis that answers late at start is waited for, each try still held to the command timeout', async () => {
    const late = await startRedis();
    try {
      late.freeze();
      const opening = RedisAdmission.open(late.url, { commandTimeoutMs: 100, startTimeoutMs: 10_000 });
      // Frozen for several command timeouts: the first answers are late, and the open goes on asking.
      await sleep(600);
      late.thaw();
      const admission = await opening;
      expect(admission.settings.evictionPolicy).toBe('noeviction');
      await admission.close();
    } finally {
      late.thaw();
      await late.close();
    }
  });

  it('a Redis that does not answer within the start timeout is refused, named, with the last failure', async () => {
    const frozen = await startRedis();
    try {
      frozen.freeze();
      const started = Date.now();
      await expect(RedisAdmission.open(frozen.url, { commandTimeoutMs: 100, startTimeoutMs: 400 })).rejects.toThrow(
        new RegExp(`^Redis at ${frozen.url.replace(/[/.]/g, '\\$&')} did not answer at start: Command timed out`),
      );
      // The start timeout and one more command timeout, with room for a loaded machine.
      expect(Date.now() - started).toBeLessThan(3_000);
    } finally {
      frozen.thaw();
      await frozen.close();
    }
  });

  it('nothing listening at the address: refused at start with the connection error, naming the Redis', async () => {
    const port = await freePort();
    await expect(RedisAdmission.open(`redis://127.0.0.1:${port}`, { startTimeoutMs: 300 })).rejects.toThrow(
      `Redis at redis://127.0.0.1:${port} did not answer at start: connect ECONNREFUSED 127.0.0.1:${port}`,
    );
  });

  it('a Redis that wants a password not given is refused at once, saying so, not waited for', async () => {
    const guarded = await startRedis(['--requirepass', 'not-given']);
    try {
      const started = Date.now();
      await expect(RedisAdmission.open(guarded.url, { startTimeoutMs: 10_000 })).rejects.toThrow(
        new RegExp(`^Redis at ${guarded.url.replace(/[/.]/g, '\\$&')} refused the connection: NOAUTH`),
      );
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await guarded.close();
    }
  });

  it('150 requests at once over three instances at 6 a window: exactly 6 admitted, the rest told when to come back', async () => {
    const results = await Promise.all(Array.from({ length: 150 }, (_, i) => instances[i % 3]!.admit(ask({ keyId: 'burst', rateLimitRpm: 6 }))));
    const admitted = results.filter((r) => r.admitted);
    expect(admitted).toHaveLength(6);
    const refused = results.filter((r): r is Extract<Admission, { reason: 'rate' }> => !r.admitted && r.reason === 'rate');
    expect(refused).toHaveLength(144);
    // Within the one-second window: come back in a second.
    expect(new Set(refused.map((r) => r.retryAfterSeconds))).toEqual(new Set([1]));
  });

  it('requests spread over several windows: no rolling window of admitted requests holds more than the limit', async () => {
    const times: number[] = [];
    const until = Date.now() + 2_600;
    await Promise.all(
      instances.map(async (instance) => {
        while (Date.now() < until) {
          const r = await instance.admit(ask({ keyId: 'spread', rateLimitRpm: 5 }));
          if (r.admitted) times.push(r.at);
          await sleep(15);
        }
      }),
    );
    times.sort((a, b) => a - b);
    // Times are Redis's own: any 1,000 ms holds at most 5; and the limit was reached in each window (GCRA would admit more).
    for (let i = 0; i + 5 < times.length; i += 1) expect(times[i + 5]! - times[i]!).toBeGreaterThanOrEqual(1000);
    expect(times.length).toBeGreaterThanOrEqual(10);
    expect(times.length).toBeLessThanOrEqual(15);
  });

  it('50 concurrent requests against a credit that fits 7 of them: exactly 7 admitted, spent + held never past the limit', async () => {
    const keyId = 'credit';
    await instances[0]!.seedSpend(keyId, 0.3);
    // $1.00 limit, $0.30 spent: $0.70 left, each request may cost up to $0.10.
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => instances[i % 3]!.admit(ask({ keyId, creditLimit: 1, worst: 0.1, requestId: `c-${i}` }))),
    );
    expect(results.filter((r) => r.admitted)).toHaveLength(7);
    expect(results.filter((r) => !r.admitted && r.reason === 'credit')).toHaveLength(43);
    const state = await instances[1]!.state(keyId);
    expect(state.spent! + state.held).toBeCloseTo(1, 9);
    // Settled at their real cost ($0.04 each): the holds go back, the spend is what they cost.
    await Promise.all(results.map((r, i) => (r.admitted ? instances[i % 3]!.settle(keyId, `c-${i}`, 0.04) : undefined)));
    expect(await instances[2]!.state(keyId)).toMatchObject({ held: 0 });
    expect((await instances[2]!.state(keyId)).spent).toBeCloseTo(0.3 + 7 * 0.04, 9);
    // A second settle of the same request charges nothing.
    const admittedAt = results.findIndex((r) => r.admitted);
    await instances[0]!.settle(keyId, `c-${admittedAt}`, 0.04);
    expect((await instances[2]!.state(keyId)).spent).toBeCloseTo(0.3 + 7 * 0.04, 9);
  });

  it("settles ride the next admission of their key: one command, applied before that admission's credit check", async () => {
    const keyId = 'ride';
    const [a, b] = [instances[0]!, instances[1]!];
    await a.seedSpend(keyId, 0);
    // $0.30 of credit: three holds of $0.10 fill it.
    for (const id of ['r1', 'r2', 'r3']) expect(await a.admit(ask({ keyId, creditLimit: 0.3, worst: 0.1, requestId: id }))).toMatchObject({ admitted: true });
    expect(await b.admit(ask({ keyId, creditLimit: 0.3, worst: 0.1 }))).toMatchObject({ admitted: false, reason: 'credit' });
    const before = await scriptCalls();
    // Two settles and an admission in one turn: the settles give $0.20 back and charge $0.02 before the
    // admission is checked, so it finds room; Redis runs one script, not three.
    const settled = [a.settle(keyId, 'r1', 0.01), a.settle(keyId, 'r2', 0.01)];
    const admitted = await a.admit(ask({ keyId, creditLimit: 0.3, worst: 0.1, requestId: 'r4' }));
    expect(await Promise.all(settled)).toEqual([true, true]);
    expect(admitted).toMatchObject({ admitted: true });
    expect((await scriptCalls()) - before).toBe(1);
    expect(await b.state(keyId)).toMatchObject({ held: 0.2 });
    expect((await b.state(keyId)).spent).toBeCloseTo(0.02, 9);
  });

  it('admissions of one key asked in one turn go in one command, admitted in order as if one by one; each key gets its own', async () => {
    const [credit, rate, other] = ['turn-credit', 'turn-rate', 'turn-other'];
    for (const keyId of [credit, other]) await instances[0]!.seedSpend(keyId, 0);
    const before = await scriptCalls();
    // In one turn: six requests on a credit of $0.25 at $0.10 each (two fit), four on a rate of two a
    // window, and one on another key.
    const byCredit = Array.from({ length: 6 }, (_, i) => instances[0]!.admit(ask({ keyId: credit, creditLimit: 0.25, worst: 0.1, requestId: `tc-${i}` })));
    const byRate = Array.from({ length: 4 }, () => instances[0]!.admit(ask({ keyId: rate, rateLimitRpm: 2 })));
    const alone = instances[0]!.admit(ask({ keyId: other, creditLimit: 1, worst: 0.1, requestId: 'to-1' }));
    const outcome = (r: Admission) => (r.admitted ? 'admitted' : r.reason);
    const credited = await Promise.all(byCredit);
    expect(credited.map(outcome)).toEqual(['admitted', 'admitted', 'credit', 'credit', 'credit', 'credit']);
    // Each refusal says what was spent and held when it was looked at: the two before it.
    expect(credited[2]).toMatchObject({ spent: 0, held: 0.2 });
    expect((await Promise.all(byRate)).map(outcome)).toEqual(['admitted', 'admitted', 'rate', 'rate']);
    expect(await alone).toMatchObject({ admitted: true });
    expect((await scriptCalls()) - before).toBe(3);
    expect(await instances[1]!.state(credit)).toMatchObject({ held: 0.2 });
    expect(await instances[1]!.state(other)).toMatchObject({ held: 0.1 });
  });

  it('a burst of 600 admissions of one key in one turn goes in calls of at most 256, in order: the first 6 admitted at 6 a window', async () => {
    const before = await scriptCalls();
    const results = await Promise.all(Array.from({ length: 600 }, () => instances[0]!.admit(ask({ keyId: 'burst-one', rateLimitRpm: 6 }))));
    expect(results.slice(0, 6).every((r) => r.admitted)).toBe(true);
    expect(results.slice(6).every((r) => !r.admitted && r.reason === 'rate')).toBe(true);
    expect((await scriptCalls()) - before).toBe(3);
  });

  it('a request settled twice before the next admission gives its hold back and is charged once; one held nothing is charged when it says so', async () => {
    const keyId = 'twice';
    const a = instances[0]!;
    await a.seedSpend(keyId, 0);
    expect(await a.admit(ask({ keyId, creditLimit: 1, worst: 0.1, requestId: 'd1' }))).toMatchObject({ admitted: true });
    // All three ride the next admission: d1 twice, and d0, which held nothing (its price was unknown).
    const settled = [a.settle(keyId, 'd1', 0.05), a.settle(keyId, 'd1', 0.05), a.settle(keyId, 'd0', 0.02, true)];
    expect(await a.admit(ask({ keyId, creditLimit: 1, worst: 0.2, requestId: 'd2' }))).toMatchObject({ admitted: true });
    expect(await Promise.all(settled)).toEqual([true, true, true]);
    const state = await a.state(keyId);
    expect(state.held).toBeCloseTo(0.2, 9);
    expect(state.spent).toBeCloseTo(0.07, 9);
  });

  it('a settle with no admission to ride goes on its own within milliseconds; one owed at close is sent before the connection goes', async () => {
    const keyId = 'alone';
    const closing = await RedisAdmission.open(redis.url, { windowMs: 1000, leaseMs: 60_000, commandTimeoutMs: 5_000 });
    await closing.seedSpend(keyId, 0);
    for (const id of ['s1', 's2']) expect(await closing.admit(ask({ keyId, creditLimit: 1, worst: 0.5, requestId: id }))).toMatchObject({ admitted: true });
    expect(await closing.settle(keyId, 's1', 0.1)).toBe(true);
    expect(await instances[2]!.state(keyId)).toMatchObject({ held: 0.5 });
    // Not awaited, as the server settles: closed at once, the settle still arrives.
    void closing.settle(keyId, 's2', 0.2);
    await closing.close();
    const state = await instances[2]!.state(keyId);
    expect(state.held).toBe(0);
    expect(state.spent).toBeCloseTo(0.3, 9);
  });

  it("a killed instance's holds are released when their lease ends, never charged; the spend is then read again from the ledger", async () => {
    const keyId = 'lease';
    await instances[0]!.seedSpend(keyId, 0);
    expect(await instances[0]!.admit(ask({ keyId, creditLimit: 0.2, worst: 0.2, requestId: 'lost' }))).toMatchObject({ admitted: true });
    // The instance that holds it is gone: nothing settles it. Until the lease ends there is no room.
    expect(await instances[1]!.admit(ask({ keyId, creditLimit: 0.2, worst: 0.2 }))).toMatchObject({ admitted: false, reason: 'credit' });
    await sleep(350);
    // Released, and the spend is stale (the dead instance may have charged the ledger before settling): asked for again.
    expect(await instances[1]!.admit(ask({ keyId, creditLimit: 0.2, worst: 0.2 }))).toEqual({ admitted: false, reason: 'unknown_spend' });
    expect(await instances[1]!.state(keyId)).toMatchObject({ spent: 0, held: 0 });
    // The ledger says it was charged $0.05: no room for $0.20 now, room for $0.15.
    await instances[1]!.seedSpend(keyId, 0.05);
    expect(await instances[1]!.admit(ask({ keyId, creditLimit: 0.2, worst: 0.2 }))).toMatchObject({ admitted: false, reason: 'credit' });
    expect(await instances[2]!.admit(ask({ keyId, creditLimit: 0.2, worst: 0.15 }))).toMatchObject({ admitted: true });
    expect(await instances[1]!.state(keyId)).toMatchObject({ spent: 0.05, held: 0.15 });
  });

  it('a key revoked through one instance is refused by the others on their next request', async () => {
    const keyId = 'revoked';
    expect(await instances[1]!.admit(ask({ keyId, rateLimitRpm: 100 }))).toMatchObject({ admitted: true });
    const generation = await instances[0]!.bumpGeneration(keyId);
    expect(generation).toBe(1);
    // The others knew generation 0: told to reload the key (and find it revoked) before anything is admitted.
    expect(await instances[1]!.admit(ask({ keyId, rateLimitRpm: 100 }))).toEqual({ admitted: false, reason: 'changed', generation: 1 });
    expect(await instances[2]!.admit(ask({ keyId, rateLimitRpm: 100, generation: 1 }))).toMatchObject({ admitted: true });
  });

  it('a spend Redis does not have is asked for (from the ledger) before credit is checked; a lower seed keeps it, a higher one raises it', async () => {
    const keyId = 'fresh';
    expect(await instances[0]!.admit(ask({ keyId, creditLimit: 5, worst: 1 }))).toEqual({ admitted: false, reason: 'unknown_spend' });
    expect(await instances[0]!.seedSpend(keyId, 4)).toBeCloseTo(4, 9);
    expect(await instances[1]!.seedSpend(keyId, 0)).toBeCloseTo(4, 9);
    // A charge that never reached Redis is in the ledger: its spend there is raised to the ledger's.
    expect(await instances[1]!.seedSpend(keyId, 4.5)).toBeCloseTo(4.5, 9);
    expect(await instances[1]!.admit(ask({ keyId, creditLimit: 5, worst: 1 }))).toMatchObject({ admitted: false, reason: 'credit', spent: 4.5 });
    expect(await instances[1]!.admit(ask({ keyId, creditLimit: 5, worst: 0.5 }))).toMatchObject({ admitted: true });
  });

  it('every key Redis keeps for the limits has a time to live, also those a revocation or a late settle made', async () => {
    const { Redis } = await import('ioredis');
    const direct = new Redis(redis.url);
    try {
      await instances[0]!.admit(ask({ keyId: 'ttl-a', rateLimitRpm: 10 }));
      await instances[0]!.seedSpend('ttl-b', 0);
      await instances[0]!.admit(ask({ keyId: 'ttl-b', creditLimit: 1, worst: 0.1, requestId: 'held-b' }));
      // Revoked before Redis ever saw it; settled after its state was gone.
      await instances[1]!.bumpGeneration('ttl-c');
      await instances[0]!.seedSpend('ttl-d', 0);
      await instances[0]!.admit(ask({ keyId: 'ttl-d', creditLimit: 1, worst: 0.1, requestId: 'held-d' }));
      await direct.del('verdict:v1:{k:ttl-d}:state');
      expect(await instances[2]!.settle('ttl-d', 'held-d', 0.05)).toBe(true);
      const keys = await direct.keys('verdict:v1:*');
      expect(keys).toEqual(expect.arrayContaining(['verdict:v1:{k:ttl-c}:state', 'verdict:v1:{k:ttl-d}:state', 'verdict:v1:{k:ttl-b}:holds']));
      const lives = await Promise.all(keys.map(async (key) => [key, await direct.pttl(key)] as const));
      // PTTL is -1 for a key that never expires. An earlier test's key may expire between KEYS and
      // PTTL (-2, gone): it had a time to live. This test's own keys were just written and are alive.
      expect(lives.filter(([, ms]) => ms === -1)).toEqual([]);
      expect(lives.filter(([key, ms]) => /\{k:ttl-/.test(key) && ms <= 0)).toEqual([]);
    } finally {
      direct.disconnect();
    }
  });

  it('a frozen Redis fails a request within the command timeout instead of holding it, and a returning one is used again', async () => {
    const admission = await RedisAdmission.open(redis.url, { commandTimeoutMs: 150 });
    try {
      redis.freeze();
      const started = Date.now();
      await expect(admission.admit(ask({ keyId: 'frozen', rateLimitRpm: 10 }))).rejects.toBeInstanceOf(AdmissionUnavailable);
      // The 150 ms timeout, with room for a loaded machine; a request held by a frozen Redis waits until it thaws.
      expect(Date.now() - started).toBeLessThan(1_000);
      redis.thaw();
      let back: Admission | null = null;
      for (let i = 0; i < 50 && !back; i += 1) {
        back = await admission.admit(ask({ keyId: 'frozen', rateLimitRpm: 10 })).catch(() => null);
        if (!back) await sleep(100);
      }
      expect(back).toMatchObject({ admitted: true });
    } finally {
      redis.thaw();
      await admission.close();
    }
  });
});
