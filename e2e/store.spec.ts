import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { ChildProcess } from 'node:child_process';
import { startBuiltServer, test, expect, type ServerInfo } from './fixtures/server';
import { startPostgres } from '../electron/test-support/postgres';

/**
 * The store against a killed process and a second process: the real built server on 127.0.0.1,
 * bounded load from this process (a few requests in flight at a time), SIGKILL at random moments.
 */

const CLI = join(import.meta.dirname, '..', 'dist', 'server', 'cli.mjs');
const ENV = { VERDICT_SANDBOX_FAILURES: 'off' };
const run = promisify(execFile);
/** A breath between one loop's writes, so the load stays bounded: pacing, not a wait for anything. */
const pace = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const DECISION = {
  model: 'sandbox/baseline-text',
  state: 'The parcel came two days late.',
  questions: { late: { type: 'noul', instructions: 'Was it late?' } },
};

interface Acknowledged {
  keys: Set<string>;
  sets: Set<string>;
  /** Summed `usage.cost` of every answered Decisions request. */
  charged: number;
  answered: number;
  statuses: number[];
  /** Acknowledged writes of every kind so far, and who waits for the next. */
  count: number;
  waiting: Set<() => void>;
}

const emptyAcknowledged = (): Acknowledged => ({ keys: new Set(), sets: new Set(), charged: 0, answered: 0, statuses: [], count: 0, waiting: new Set() });

function acknowledge(acked: Acknowledged): void {
  acked.count += 1;
  for (const wake of [...acked.waiting]) wake();
}

/** Resolves at the first acknowledgement after which `ready()` holds (at once if it holds now). */
function acknowledgedUntil(acked: Acknowledged, ready: () => boolean): Promise<void> {
  if (ready()) return Promise.resolve();
  return new Promise((resolve) => {
    const wake = () => {
      if (!ready()) return;
      acked.waiting.delete(wake);
      resolve();
    };
    acked.waiting.add(wake);
  });
}

/**
 * Loops of requests until `stopped()`: Decisions on the metered key, key creation, question-set
 * saves; `breathMs` between one write loop's requests.
 */
function startLoad(info: ServerInfo, managementKey: string, meteredKey: string, acked: Acknowledged, stopped: () => boolean, breathMs = 5): Promise<void> {
  const token = new URL(info.uiUrl).searchParams.get('token')!;
  const call = async (path: string, init: RequestInit): Promise<Response | null> => {
    try {
      const response = await fetch(`${info.url}${path}`, init);
      acked.statuses.push(response.status);
      return response;
    } catch {
      return null; // The server was killed with this request in flight: not acknowledged.
    }
  };
  // Bounded: one request in flight per loop, and a breath between writes.
  const loop = async (step: (n: number) => Promise<void>, pauseMs = 0) => {
    for (let n = 0; !stopped(); n += 1) {
      await step(n);
      if (pauseMs > 0) await pace(pauseMs);
    }
  };
  const decisions = () =>
    loop(async () => {
      const response = await call('/api/alpha/decisions', {
        method: 'POST',
        headers: { authorization: `Bearer ${meteredKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(DECISION),
      });
      const body = response?.status === 200 ? ((await response.json().catch(() => null)) as { usage: { cost: number } } | null) : null;
      if (body) {
        acked.charged += body.usage.cost;
        acked.answered += 1;
        acknowledge(acked);
      }
    });
  const keys = () =>
    loop(async (n) => {
      const response = await call('/api/v1/keys', {
        method: 'POST',
        headers: { authorization: `Bearer ${managementKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `load ${n}`, kind: 'standard' }),
      });
      const body = response?.status === 201 ? ((await response.json().catch(() => null)) as { data: { id: string } } | null) : null;
      if (body) {
        acked.keys.add(body.data.id);
        acknowledge(acked);
      }
    }, breathMs);
  const sets = () =>
    loop(async (n) => {
      const response = await call('/api/inspector/sets.save', {
        method: 'POST',
        headers: { cookie: `verdict_session_${new URL(info.url).port}=${token}`, 'x-verdict-client': 'renderer', 'content-type': 'application/json' },
        body: JSON.stringify({ name: `set ${n}`, request: DECISION }),
      });
      const body = response?.status === 200 ? ((await response.json().catch(() => null)) as { ok: boolean; data: { id: string } } | null) : null;
      if (body?.ok) {
        acked.sets.add(body.data.id);
        acknowledge(acked);
      }
    }, breathMs);
  return Promise.all([decisions(), decisions(), decisions(), keys(), sets()]).then(() => undefined);
}

async function state(info: ServerInfo, managementKey: string): Promise<{ keys: Map<string, number>; sets: Set<string> }> {
  const keys = (await (await fetch(`${info.url}/api/v1/keys`, { headers: { authorization: `Bearer ${managementKey}` } })).json()) as {
    data: { id: string; spent: number }[];
  };
  const token = new URL(info.uiUrl).searchParams.get('token')!;
  const sets = (await (
    await fetch(`${info.url}/api/inspector/sets.list`, {
      method: 'POST',
      headers: { cookie: `verdict_session_${new URL(info.url).port}=${token}`, 'x-verdict-client': 'renderer', 'content-type': 'application/json' },
      body: '{}',
    })
  ).json()) as { data: { id: string }[] };
  return { keys: new Map(keys.data.map((k) => [k.id, k.spent])), sets: new Set(sets.data.map((s) => s.id)) };
}

const killed = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });

/** Ten rounds of load, each ended by SIGKILL at a random moment; after each restart every acknowledged write is there. */
async function killedUnderLoad(env: Record<string, string>): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'verdict-e2e-crash-'));
  let { info, child } = await startBuiltServer(dataDir, env);
  try {
    const managementKey = info.managementKey;
    const created = await fetch(`${info.url}/api/v1/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${managementKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'metered', kind: 'standard', credit_limit: 1000 }),
    });
    const metered = (await created.json()) as { key: string; data: { id: string } };
    const acked = emptyAcknowledged();
    let lastSpent = 0;
    for (let round = 0; round < 10; round += 1) {
      let stop = false;
      const load = startLoad(info, managementKey, metered.key, acked, () => stop);
      // Each round kills with writes of every kind acknowledged and more in flight, at a random
      // moment of the load: just after a random number (0 to 149) of further acknowledgements.
      const before = { answered: acked.answered, keys: acked.keys.size, sets: acked.sets.size };
      await acknowledgedUntil(acked, () => acked.answered > before.answered && acked.keys.size > before.keys && acked.sets.size > before.sets);
      const killAt = acked.count + Math.floor(Math.random() * 150);
      await acknowledgedUntil(acked, () => acked.count >= killAt);
      await killed(child);
      stop = true;
      await load;

      // The data opens again, with nothing to clean up by hand.
      ({ info, child } = await startBuiltServer(dataDir, env));
      const now = await state(info, managementKey);
      for (const id of acked.keys) expect(now.keys.has(id), `key ${id} acknowledged in round ${round}`).toBe(true);
      for (const id of acked.sets) expect(now.sets.has(id), `set ${id} acknowledged in round ${round}`).toBe(true);
      const spent = now.keys.get(metered.data.id)!;
      // Listed spend is rounded to 6 places; one lost charge here is about 0.00007.
      expect(spent, `round ${round}: spend covers every answered request`).toBeGreaterThanOrEqual(acked.charged - 6e-7);
      expect(spent, `round ${round}: spend never decreases`).toBeGreaterThanOrEqual(lastSpent);
      lastSpent = spent;
    }
    // The load was real: acknowledged writes of each kind in every round.
    expect(acked.answered).toBeGreaterThanOrEqual(10);
    expect(acked.keys.size).toBeGreaterThanOrEqual(10);
    expect(acked.sets.size).toBeGreaterThanOrEqual(10);
    expect(acked.statuses.filter((s) => s >= 500)).toEqual([]);
    // With a database named, the data went there: the data directory holds no SQLite file.
    expect(existsSync(join(dataDir, 'verdict.sqlite'))).toBe(env['VERDICT_DATABASE_URL'] === undefined);
  } finally {
    await killed(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

test('killed at random moments under load: every acknowledged key, set and charge is there after each restart', async () => {
  // About 12 s on a quiet machine (ten starts of the server); the margin is for a busy one.
  test.setTimeout(90_000);
  await killedUnderLoad(ENV);
});

test('on PostgreSQL, killed at random moments under load: every acknowledged key, set and charge is there after each restart', async () => {
  // The server's data on a real PostgreSQL server (Debian's, else the build npm ci brought in), started for this test.
  test.setTimeout(120_000);
  const postgres = await startPostgres();
  try {
    await killedUnderLoad({ ...ENV, VERDICT_DATABASE_URL: await postgres.createDatabase('crash') });
  } finally {
    postgres.stop();
  }
});

test('the keys command succeeds 20 times beside a server under load, which answers no 5xx meanwhile', async () => {
  // Each command starts a Node process and a core (about a second here, more while other journeys run).
  test.setTimeout(120_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'verdict-e2e-keys-'));
  const { info, child } = await startBuiltServer(dataDir, ENV);
  let stop = false;
  const acked = emptyAcknowledged();
  try {
    const created = await fetch(`${info.url}/api/v1/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${info.managementKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'metered', kind: 'standard', credit_limit: 1000 }),
    });
    const metered = (await created.json()) as { key: string };
    // Writes beside every command (about 40 a second of keys and sets, and the Decisions), at a
    // quarter of the kill journeys' rate: the commands' locks meet the server's all the same, and
    // the server does not take a core from the journeys running beside this one.
    const load = startLoad(info, info.managementKey, metered.key, acked, () => stop, 20);
    const keys = (...args: string[]) => run(process.execPath, [CLI, 'keys', ...args, '--data-dir', dataDir], { encoding: 'utf8' });
    const made: string[] = [];
    for (let i = 0; i < 20; i += 1) {
      if (i % 3 === 0) {
        const out = await keys('create', '--name', `cli ${i}`, '--credit-limit', '5');
        made.push(/^Created standard key ([0-9a-f]{12})/m.exec(out.stdout)![1]!);
      } else if (i % 3 === 1) {
        expect((await keys('list')).stdout).toContain('metered');
      } else {
        const id = made.shift()!;
        expect((await keys('revoke', id)).stdout).toContain(`Revoked ${id}`);
      }
    }
    // An error is one line on stderr and a non-zero exit, not a stack through the bundle.
    const failed = await keys('revoke', '000000000000').then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toBe('verdict: No API key with id "000000000000"\n');
    stop = true;
    await load;
    expect(acked.answered).toBeGreaterThan(20);
    expect(acked.statuses.filter((s) => s >= 500)).toEqual([]);
    // What the commands wrote is what the server sees.
    const listed = await state(info, info.managementKey);
    for (const id of made) expect(listed.keys.has(id)).toBe(true);
  } finally {
    stop = true;
    await killed(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
});
