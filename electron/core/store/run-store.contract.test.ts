import { describe, expect, it } from 'vitest';
import { storeBackends } from '../../test-support/store-backends';
import type { RunStorage, StoredRun } from './ports';
import { PgRunStore } from './postgres/run-store';
import { SqliteRunStore } from './sqlite/run-store';

/** The runs domain's storage contract, on both backends. */
const backends = storeBackends<RunStorage>({ sqlite: (store) => new SqliteRunStore(store), postgres: (db) => new PgRunStore(db) });

const run = (id: string, created_at: number, over: Partial<StoredRun> = {}): StoredRun => ({
  id,
  created_at,
  origin: 'inspector',
  key_id: null,
  session_id: 'session-1',
  user: 'analyst@example.com',
  model: 'sandbox/baseline-text',
  provider: 'Steady (simulated)',
  endpoint_id: 'sandbox-steady/baseline-text',
  status: 200,
  latency_ms: 812.5,
  input_tokens: 120,
  output_tokens: 3,
  cost: 0.000125,
  methods: { urgent: 'logprobs' },
  question_count: 1,
  request: { model: 'sandbox/baseline-text', state: 'ticket', questions: { urgent: { type: 'noul', instructions: 'Urgent?' } } },
  response: { answers: { urgent: { probability: 0.25 } } },
  set_id: 'set-1',
  label: null,
  routing: { preferences: null, attempts: [{ provider: 'Steady (simulated)', outcome: 'ok' }] },
  ...over,
});

describe.each(backends)('RunStorage on %s', (_name, backend) => {
  it("keeps a run as given; gets only the inspector's; another connection reads the same", async () => {
    const { a, b, close } = await backend.open();
    try {
      // Times in ms since the epoch, with the fraction the system clock gives.
      const mine = run('run-1', 1_795_689_684_240.1858);
      const api = run('d-api', 2_000, { origin: 'api', key_id: 'aaaaaaaaaaaa', request: null, response: null, methods: null, routing: null });
      await a.add(mine);
      await a.add(api);
      expect(await b.get('run-1')).toEqual(mine);
      expect(await b.get('d-api')).toBeUndefined();
      await expect(a.add(mine)).rejects.toThrow();
    } finally {
      await close();
    }
  });

  it('lists newest first, by set, model and outcome, up to a limit; a stored run is never running', async () => {
    const { a, b, close } = await backend.open();
    try {
      await a.add(run('r1', 1_000));
      await a.add(run('r2', 2_000, { status: 502, model: 'x/y' }));
      await a.add(run('r3', 3_000, { status: 499, set_id: 'set-2' }));
      await a.add(run('r4', 4_000, { origin: 'api' }));
      const ids = async (filter: Parameters<RunStorage['list']>[0]) => (await b.list(filter)).map((r) => r.id);
      expect(await ids({ limit: 10 })).toEqual(['r3', 'r2', 'r1']);
      expect(await ids({ limit: 2 })).toEqual(['r3', 'r2']);
      expect(await ids({ limit: 10, status: 'done' })).toEqual(['r1']);
      expect(await ids({ limit: 10, status: 'failed' })).toEqual(['r2']);
      expect(await ids({ limit: 10, status: 'cancelled' })).toEqual(['r3']);
      expect(await ids({ limit: 10, status: 'running' })).toEqual([]);
      expect(await ids({ limit: 10, set_id: 'set-1' })).toEqual(['r2', 'r1']);
      expect(await ids({ limit: 10, model: 'x/y' })).toEqual(['r2']);
    } finally {
      await close();
    }
  });

  it('removes an inspector run, and API records before a time; says what went', async () => {
    const { a, b, close } = await backend.open();
    try {
      await a.add(run('r1', 1_000));
      await a.add(run('d1', 1_000, { origin: 'api' }));
      await a.add(run('d2', 5_000, { origin: 'api' }));
      expect(await b.remove('d1')).toBe(false);
      expect(await b.remove('r1')).toBe(true);
      expect(await b.remove('r1')).toBe(false);
      expect(await b.forgetApiRecordsBefore(5_000)).toBe(1);
      expect(await a.answeredTokens()).toEqual([{ model: 'sandbox/baseline-text', requests: 1, input: 120, output: 3, cost: 0.000125, priced: 1 }]);
    } finally {
      await close();
    }
  });

  it('sums the tokens of answered requests per model, leaving out failures and unknown tokens', async () => {
    const { a, b, close } = await backend.open();
    try {
      await a.add(run('r1', 1, { input_tokens: 100, output_tokens: 2 }));
      await a.add(run('r2', 2, { input_tokens: 300, output_tokens: 4, cost: 0.0003 }));
      await a.add(run('r6', 6, { input_tokens: 50, output_tokens: 1, cost: null }));
      await a.add(run('r3', 3, { status: 502, input_tokens: 999, output_tokens: 9 }));
      await a.add(run('r4', 4, { input_tokens: null, output_tokens: null }));
      await a.add(run('r5', 5, { model: 'a/one', input_tokens: 7, output_tokens: 1, origin: 'api' }));
      expect(await b.answeredTokens()).toEqual([
        { model: 'a/one', requests: 1, input: 7, output: 1, cost: 0.000125, priced: 1 },
        // r1 at 0.000125 and r2 at 0.0003; r6's cost is unknown: three requests, two priced.
        { model: 'sandbox/baseline-text', requests: 3, input: 450, output: 7, cost: 0.000425, priced: 2 },
      ]);
    } finally {
      await close();
    }
  });
});
