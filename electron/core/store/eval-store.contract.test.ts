import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { bundled, postgresForFile, storeBackends } from '../../test-support/store-backends';
import { until } from '../../test-support/until';
import type { DatasetStorage, EvalStorage, NewEvalResult, StoredEvalResult, StoredEvalRun } from './ports';
import { PgDatabase } from './postgres/database';
import { PgDatasetStore } from './postgres/dataset-store';
import { PgEvalStore } from './postgres/eval-store';
import { SqliteDatasetStore } from './sqlite/dataset-store';
import { SqliteEvalStore } from './sqlite/eval-store';

/** The evaluations domain's storage contract, on both backends (runs are over datasets, so those are there too). */
interface Ports {
  datasets: DatasetStorage;
  evals: EvalStorage;
}

const backends = storeBackends<Ports>({
  sqlite: (store) => ({ datasets: new SqliteDatasetStore(store), evals: new SqliteEvalStore(store) }),
  postgres: async (db) => ({ datasets: await PgDatasetStore.open(db), evals: await PgEvalStore.open(db) }),
});

const run = (id: string, created_at: string, over: Partial<StoredEvalRun> = {}): StoredEvalRun => ({
  id,
  name: `run ${id}`,
  dataset_id: 'ds',
  set_key: 'set-1',
  request: { model: 'sandbox/baseline-text', questions: { urgent: { type: 'noul' }, category: { type: 'enum', options: ['a', 'b'] } } },
  variants: [{ model: 'openai/gpt-5', label: 'fast' }, { model: 'groq/llama' }],
  concurrency: 4,
  budget_usd: 2.5,
  status: 'running',
  message: null,
  created_at,
  finished_at: null,
  calibrations: [{ variant: 0, question: 'urgent', temperature: 1.5 }],
  baseline_id: null,
  estimate: { expected_usd: 1.25, input_tokens: 1000 },
  ...over,
});

const answer = (variant: number, position: number, over: Partial<NewEvalResult> = {}): NewEvalResult => ({
  variant,
  position,
  answers: { urgent: true },
  raw_answers: null,
  methods: null,
  attempts: null,
  provider: 'openai',
  input_tokens: 100,
  output_tokens: 20,
  cost: 0.5,
  latency_ms: 1200.5,
  error: null,
  model_key: variant === 0 ? 'openai/gpt-5 (fast)' : 'groq/llama',
  content_chars: 40,
  answered_at: '2026-01-01T00:01:00.000Z',
  ...over,
});

const failure = (
  variant: number,
  position: number,
  over: Partial<Parameters<EvalStorage['putFailure']>[1]> = {},
): Parameters<EvalStorage['putFailure']>[1] => ({
  variant,
  position,
  input_tokens: 10,
  output_tokens: 1,
  cost: 0.125,
  latency_ms: 300,
  error: 'upstream timed out',
  retryable: true,
  model_key: variant === 0 ? 'openai/gpt-5 (fast)' : 'groq/llama',
  content_chars: 40,
  answered_at: '2026-01-01T00:00:30.000Z',
  ...over,
});

/** A result as read back: what was stored, ok or not. */
const stored = (r: NewEvalResult | Parameters<EvalStorage['putFailure']>[1], ok: boolean, over: Partial<StoredEvalResult> = {}): StoredEvalResult => ({
  variant: r.variant,
  position: r.position,
  ok,
  answers: 'answers' in r ? r.answers : {},
  raw_answers: 'raw_answers' in r ? r.raw_answers : null,
  methods: 'methods' in r ? r.methods : null,
  attempts: 'attempts' in r ? r.attempts : null,
  provider: 'provider' in r ? r.provider : null,
  input_tokens: r.input_tokens,
  output_tokens: r.output_tokens,
  cost: r.cost,
  latency_ms: r.latency_ms,
  error: r.error,
  answered_at: r.answered_at,
  ...over,
});

async function withDataset(datasets: DatasetStorage, id = 'ds', created_at = '2026-01-01T00:00:00.000Z'): Promise<void> {
  await datasets.create({ id, name: id, items: 0, created_at, sample: false }, []);
}

describe.each(backends)('EvalStorage on %s', (_name, backend) => {
  it("a run's lease goes to one owner at a time: renewed by it, taken by another only once it ended or was given back", async () => {
    const { a, b, close } = await backend.open();
    try {
      await withDataset(a.datasets);
      await a.evals.addRun(run('r', '2026-01-01T00:00:00.000Z'));
      const t = 1_795_689_684_240.25;
      expect(await a.evals.leaseRun('r', 'host-a', t, t + 30_000)).toBe(true);
      // Another instance, at once and just before the lease ends: refused.
      expect(await b.evals.leaseRun('r', 'host-b', t + 1, t + 30_001)).toBe(false);
      expect(await b.evals.leaseRun('r', 'host-b', t + 29_999, t + 59_999)).toBe(false);
      // Its owner renews it.
      expect(await a.evals.leaseRun('r', 'host-a', t + 10_000, t + 40_000)).toBe(true);
      expect(await b.evals.leaseRun('r', 'host-b', t + 35_000, t + 65_000)).toBe(false);
      // Once it ended, another takes it, and the first may not renew it.
      expect(await b.evals.leaseRun('r', 'host-b', t + 40_001, t + 70_001)).toBe(true);
      expect(await a.evals.leaseRun('r', 'host-a', t + 40_002, t + 70_002)).toBe(false);
      // Given back by someone else: nothing; by its owner: free at once.
      await a.evals.releaseRun('r', 'host-a');
      expect(await a.evals.leaseRun('r', 'host-a', t + 40_003, t + 70_003)).toBe(false);
      await b.evals.releaseRun('r', 'host-b');
      expect(await a.evals.leaseRun('r', 'host-a', t + 40_004, t + 70_004)).toBe(true);
      expect(await a.evals.leaseRun('missing', 'host-a', t, t + 1)).toBe(false);
      // A lease is not part of the run as stored.
      expect(await b.evals.getRun('r')).toEqual(run('r', '2026-01-01T00:00:00.000Z'));
    } finally {
      await close();
    }
  });

  it("a spread run's items are claimed by one owner at a time: concurrent claims never share an item, a lapsed claim is taken again, renewal keeps it", async () => {
    const { a, b, close } = await backend.open();
    try {
      await withDataset(a.datasets);
      await a.evals.addRun(run('r', '2026-01-01T00:00:00.000Z', { status: 'paused' }));
      const t = 1_795_689_684_240;
      const work = Array.from({ length: 20 }, (_, i) => ({ variant: i % 2, position: Math.floor(i / 2) }));
      // Nothing to claim before the run is spread.
      expect(await a.evals.claimWork('r', 'a', t, t + 20_000, 5)).toEqual([]);
      expect(await a.evals.spreadRun('r', 'a', work, t)).toBe(true);
      expect((await b.evals.getRun('r'))!.status).toBe('running');
      expect(await b.evals.spreadRuns()).toEqual(['r']);
      // Two connections claiming at once, many times: every item once, none twice.
      const claims = await Promise.all(
        Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? a : b).evals.claimWork('r', i % 2 === 0 ? 'a' : 'b', t, t + 20_000, 3)),
      );
      const taken = claims.flat().map((w) => `${w.variant}/${w.position}`);
      expect(new Set(taken).size).toBe(taken.length);
      expect(taken.length).toBe(20);
      expect(await a.evals.claimWork('r', 'c', t + 1, t + 20_000, 5)).toEqual([]);
      // Renewed by b: its claims outlive a's, which lapse and go to c.
      const ofB = claims.filter((_, i) => i % 2 === 1).flat();
      expect(await b.evals.renewClaims('r', 'b', t + 40_000)).toEqual({ status: 'running', not_before: null, held: ofB.length });
      const retaken = await a.evals.claimWork('r', 'c', t + 30_000, t + 50_000, 100);
      expect(retaken.length).toBe(20 - ofB.length);
      expect(retaken.every((w) => !ofB.some((o) => o.variant === w.variant && o.position === w.position))).toBe(true);
      // a's renewal finds none of its claims left.
      expect((await a.evals.renewClaims('r', 'a', t + 60_000))!.held).toBe(0);
      // Given back, b's claims are claimable at once.
      await b.evals.releaseClaims('r', 'b');
      expect((await a.evals.claimWork('r', 'c', t + 30_001, t + 50_000, 100)).length).toBe(ofB.length);
      // Paused: nothing is claimed, even lapsed claims.
      expect(await a.evals.stopRun('r', 'paused', null, null)).toBe(true);
      expect(await a.evals.stopRun('r', 'cancelled', null, null)).toBe(false);
      expect(await b.evals.claimWork('r', 'b', t + 90_000, t + 100_000, 100)).toEqual([]);
    } finally {
      await close();
    }
  });

  it("a stored result ends its item's claim, and the run is marked done once, by the call that finds no claim left", async () => {
    const { a, b, close } = await backend.open();
    try {
      await withDataset(a.datasets);
      await a.evals.addRun(run('r', '2026-01-01T00:00:00.000Z'));
      const t = 1_795_689_684_240;
      // Another owner sending the run alone (its lease live): not spread under it.
      expect(await a.evals.leaseRun('r', 'solo', t, t + 30_000)).toBe(true);
      expect(await a.evals.spreadRun('r', 'a', [{ variant: 0, position: 0 }], t)).toBe(false);
      await a.evals.releaseRun('r', 'solo');
      expect(
        await a.evals.spreadRun(
          'r',
          'a',
          [
            { variant: 0, position: 0 },
            { variant: 1, position: 0 },
          ],
          t,
        ),
      ).toBe(true);
      expect(await a.evals.claimWork('r', 'a', t, t + 20_000, 1)).toEqual([{ variant: 0, position: 0 }]);
      expect(await b.evals.claimWork('r', 'b', t, t + 20_000, 1)).toEqual([{ variant: 1, position: 0 }]);
      await a.evals.putAnswer('r', answer(0, 0), { replace: false });
      expect(await a.evals.finishIfDrained('r', '2026-01-01T00:02:00.000Z', t)).toBe(false);
      await b.evals.putFailure('r', failure(1, 0));
      // Spread again (a resume): stored items are not put back when not given.
      const [first, second] = await Promise.all([
        a.evals.finishIfDrained('r', '2026-01-01T00:02:00.000Z', t),
        b.evals.finishIfDrained('r', '2026-01-01T00:02:00.000Z', t),
      ]);
      expect([first, second].filter(Boolean)).toHaveLength(1);
      expect(await a.evals.getRun('r')).toMatchObject({ status: 'done', finished_at: '2026-01-01T00:02:00.000Z' });
      expect(await b.evals.spreadRuns()).toEqual([]);
    } finally {
      await close();
    }
  });

  it("the budget holds every claim's worst case and every stored cost, whoever holds them; a lapsed item's owner is told it lost it", async () => {
    const { a, b, close } = await backend.open();
    try {
      await withDataset(a.datasets);
      await a.evals.addRun(run('r', '2026-01-01T00:00:00.000Z', { budget_usd: 1 }));
      const t = 1_795_689_684_240;
      const work = [0, 1, 2, 3].map((position) => ({ variant: 0, position }));
      await a.evals.spreadRun('r', 'a', work, t);
      const [w0, w1] = await a.evals.claimWork('r', 'a', t, t + 20_000, 2);
      const [w2, w3] = await b.evals.claimWork('r', 'b', t, t + 20_000, 2);
      expect(await a.evals.reserveBudget('r', 'a', w0!, 0.4)).toEqual({ reserved: true });
      expect(await b.evals.reserveBudget('r', 'b', w2!, 0.4)).toEqual({ reserved: true });
      // 0.8 held: a third 0.4 waits, though it would fit with nothing held.
      expect(await a.evals.reserveBudget('r', 'a', w1!, 0.4)).toEqual({ reserved: false, reason: 'held', spent: 0, held: 0.8, budget: 1 });
      // Asked again for the same item, its own hold is not counted twice.
      expect(await a.evals.reserveBudget('r', 'a', w0!, 0.2)).toEqual({ reserved: true });
      // Stored at a cost of 0.5: the hold goes with the claim, the cost counts.
      await a.evals.putAnswer('r', answer(0, w0!.position, { cost: 0.5 }), { replace: false });
      expect(await b.evals.reserveBudget('r', 'b', w3!, 0.2)).toEqual({ reserved: false, reason: 'held', spent: 0.5, held: 0.4, budget: 1 });
      expect(await b.evals.reserveBudget('r', 'b', w3!, 0.6)).toEqual({ reserved: false, reason: 'budget', spent: 0.5, held: 0.4, budget: 1 });
      expect(await b.evals.reserveBudget('r', 'b', w3!, 0.1)).toEqual({ reserved: true });
      // a's claim on w1 lapses (b renewed its own) and b takes it: a is told it is no longer its to send.
      await b.evals.renewClaims('r', 'b', t + 60_000);
      const taken = await b.evals.claimWork('r', 'b', t + 30_000, t + 50_000, 5);
      expect(taken).toEqual([w1]);
      expect(await a.evals.reserveBudget('r', 'a', w1!, 0.01)).toEqual({ reserved: false, reason: 'lost' });
      // A Retry-After seen anywhere is read everywhere, the later wait kept.
      await a.evals.waitUntil('r', t + 5_000);
      await b.evals.waitUntil('r', t + 2_000);
      expect((await b.evals.renewClaims('r', 'b', t + 60_000))!.not_before).toBe(t + 5_000);
    } finally {
      await close();
    }
  });

  it('reservations from two connections at once never take more room than the budget has', async () => {
    const { a, b, close } = await backend.open();
    try {
      await withDataset(a.datasets);
      await a.evals.addRun(run('r', '2026-01-01T00:00:00.000Z', { budget_usd: 1 }));
      const t = 1_795_689_684_240;
      await a.evals.spreadRun(
        'r',
        'a',
        Array.from({ length: 20 }, (_, position) => ({ variant: 0, position })),
        t,
      );
      const mine = await a.evals.claimWork('r', 'a', t, t + 20_000, 10);
      const theirs = await b.evals.claimWork('r', 'b', t, t + 20_000, 10);
      // 0.3 each: three fit in 1, a fourth would not.
      const answers = await Promise.all([
        ...mine.map((w) => a.evals.reserveBudget('r', 'a', w, 0.3)),
        ...theirs.map((w) => b.evals.reserveBudget('r', 'b', w, 0.3)),
      ]);
      expect(answers.filter((x) => x.reserved)).toHaveLength(3);
      expect(answers.filter((x) => !x.reserved && x.reason === 'held')).toHaveLength(17);
    } finally {
      await close();
    }
  });

  it('keeps runs as given, lists the newest first (of a status when asked), names those of a dataset, and changes the fields asked', async () => {
    const { a, b, close } = await backend.open();
    try {
      await withDataset(a.datasets);
      await withDataset(a.datasets, 'other');
      const first = run('r1', '2026-01-01T00:00:00.000Z', { status: 'done', finished_at: '2026-01-01T01:00:00.000Z' });
      const second = run('r2', '2026-01-02T00:00:00.000Z', { calibrations: null, estimate: null, budget_usd: null, variants: [{ model: 'm' }] });
      const third = run('r3', '2026-01-03T00:00:00.000Z', { dataset_id: 'other', status: 'done', baseline_id: 'r1', message: 'all answered' });
      for (const r of [second, first, third]) await a.evals.addRun(r);
      await expect(a.evals.addRun(run('r4', '2026-01-04T00:00:00.000Z', { dataset_id: 'no-such-dataset' }))).rejects.toThrow();

      expect(await b.evals.getRun('r1')).toEqual(first);
      expect(await b.evals.getRun('r2')).toEqual(second);
      expect(JSON.stringify((await b.evals.getRun('r1'))?.request)).toBe(JSON.stringify(first.request));
      expect(await b.evals.getRun('nope')).toBeUndefined();
      expect((await b.evals.listRuns({ limit: 2 })).map((r) => r.id)).toEqual(['r3', 'r2']);
      expect((await b.evals.listRuns({ limit: 10, status: 'done' })).map((r) => r.id)).toEqual(['r3', 'r1']);
      expect((await b.evals.runNames('ds')).sort()).toEqual(['run r1', 'run r2']);
      expect(await b.evals.runNames('none')).toEqual([]);

      await b.evals.updateRun('r2', { status: 'budget', message: 'budget reached', finished_at: '2026-01-02T02:00:00.000Z', budget_usd: 5 });
      await b.evals.updateRun('r3', { baseline_id: null, message: null });
      await b.evals.updateRun('r1', {});
      expect(await a.evals.getRun('r2')).toEqual({
        ...second,
        status: 'budget',
        message: 'budget reached',
        finished_at: '2026-01-02T02:00:00.000Z',
        budget_usd: 5,
      });
      expect(await a.evals.getRun('r3')).toEqual({ ...third, baseline_id: null, message: null });
      expect(await a.evals.getRun('r1')).toEqual(first);

      await a.evals.putAnswer('r1', answer(0, 0), { replace: false });
      expect(await b.evals.removeRun('r1')).toBe(true);
      expect(await b.evals.removeRun('r1')).toBe(false);
      expect(await a.evals.getRun('r1')).toBeUndefined();
      expect(await a.evals.results('r1')).toEqual([]);
    } finally {
      await close();
    }
  });

  it('a failure sent again counts a try and adds up its tokens and cost; an answer replaces it; an answer stays unless replaced on purpose', async () => {
    const { a, b, close } = await backend.open();
    try {
      await withDataset(a.datasets);
      await a.evals.addRun(run('r', '2026-01-01T00:00:00.000Z'));
      const tries = async () => (await b.evals.triesByItem('r', 10)).get(7 * 1024 + 1);

      const first = failure(1, 7, { cost: null, input_tokens: 10, output_tokens: 1, error: 'timeout' });
      await a.evals.putFailure('r', first);
      expect(await b.evals.resultsAt('r', 7)).toEqual([stored(first, false)]);
      expect(await tries()).toBe(1);

      // Unknown cost, then a known one: the known one.
      const second = failure(1, 7, {
        cost: 0.25,
        input_tokens: 5,
        output_tokens: 2,
        error: 'rate limited',
        latency_ms: 50,
        answered_at: '2026-01-01T00:00:40.000Z',
      });
      await a.evals.putFailure('r', second);
      expect(await b.evals.resultsAt('r', 7)).toEqual([stored(second, false, { input_tokens: 15, output_tokens: 3, cost: 0.25 })]);
      expect(await tries()).toBe(2);

      const answered = answer(1, 7, {
        answers: { urgent: true, category: 'b' },
        raw_answers: { urgent: false, category: 'b' },
        methods: { urgent: 'logprobs' },
        attempts: [{ endpoint: 'groq/llama', status: 200 }],
        provider: 'groq',
        input_tokens: 100,
        output_tokens: 20,
        cost: 0.5,
      });
      await a.evals.putAnswer('r', answered, { replace: false });
      const afterAnswer = stored(answered, true, { input_tokens: 115, output_tokens: 23, cost: 0.75 });
      expect(await b.evals.resultsAt('r', 7)).toEqual([afterAnswer]);
      // An answer is not a failure to retry.
      expect(await tries()).toBe(0);

      // Over an answer: a failure changes nothing, nor does an answer unless it replaces on purpose.
      await a.evals.putFailure('r', failure(1, 7, { cost: 1 }));
      await a.evals.putAnswer('r', answer(1, 7, { answers: { urgent: false }, cost: 1 }), { replace: false });
      expect(await b.evals.resultsAt('r', 7)).toEqual([afterAnswer]);

      // Replaced on purpose: its answers, its tokens added; a known cost plus an unknown one stays the known one.
      const again = answer(1, 7, {
        answers: { urgent: false },
        raw_answers: null,
        methods: null,
        attempts: null,
        cost: null,
        input_tokens: 7,
        output_tokens: 3,
      });
      await b.evals.putAnswer('r', again, { replace: true });
      expect(await a.evals.resultsAt('r', 7)).toEqual([stored(again, true, { input_tokens: 122, output_tokens: 26, cost: 0.75 })]);
      expect(await a.evals.counts('r')).toEqual({ done: 1, failed: 0, spent: 0.75 });
    } finally {
      await close();
    }
  });

  it("one turn's results share a commit in the order they were made, and each is there once its promise resolves", async () => {
    const { a, b, close } = await backend.open();
    try {
      await withDataset(a.datasets);
      await a.evals.addRun(run('r', '2026-01-01T00:00:00.000Z'));
      // In one turn: a failure then an answer of one item (the answer replaces it, tokens added), an answer then
      // a failure of another (the answer stays), and forty more answers.
      const writes = [
        a.evals.putFailure('r', failure(0, 0, { input_tokens: 1, output_tokens: 1, cost: 0.125 })),
        a.evals.putAnswer('r', answer(0, 0, { input_tokens: 2, output_tokens: 2, cost: 0.25 }), { replace: false }),
        a.evals.putAnswer('r', answer(1, 0, { input_tokens: 2, output_tokens: 2, cost: 0.25 }), { replace: false }),
        a.evals.putFailure('r', failure(1, 0, { input_tokens: 1, output_tokens: 1, cost: 0.125 })),
        ...Array.from({ length: 40 }, (_, i) => a.evals.putAnswer('r', answer(i % 2, 1 + Math.floor(i / 2), { cost: 0.25 }), { replace: false })),
      ];
      await Promise.all(writes);
      expect(await b.evals.counts('r')).toEqual({ done: 42, failed: 0, spent: 0.375 + 0.25 + 40 * 0.25 });
      const [first, second] = await b.evals.resultsAt('r', 0);
      expect([first?.ok, first?.input_tokens, first?.cost]).toEqual([true, 3, 0.375]);
      expect([second?.ok, second?.input_tokens, second?.cost]).toEqual([true, 2, 0.25]);
      // A write refused (its run is unknown) is refused to its caller.
      await expect(a.evals.putAnswer('no-such-run', answer(0, 0), { replace: false })).rejects.toThrow();
      await a.evals.putAnswer('r', answer(0, 99), { replace: false });
      expect((await b.evals.resultsAt('r', 99)).length).toBe(1);
    } finally {
      await close();
    }
  });

  it('counts results, failures to retry and the tries of each, keyed position * 1024 + variant', async () => {
    const { a, b, close } = await backend.open();
    try {
      await withDataset(a.datasets);
      await a.evals.addRun(run('r', '2026-01-01T00:00:00.000Z'));
      await a.evals.putAnswer('r', answer(0, 0, { cost: 0.5 }), { replace: false });
      await a.evals.putFailure('r', failure(1, 0, { cost: 0.125 }));
      await a.evals.putFailure('r', failure(0, 1, { retryable: false, cost: null, error: 'malformed answer' }));
      for (let i = 0; i < 3; i += 1) await a.evals.putFailure('r', failure(1, 1, { cost: 0.125 }));
      await a.evals.putAnswer('r', answer(1, 2, { cost: null }), { replace: false });
      // Past two million items, the key is past what a 32-bit integer holds.
      await a.evals.putFailure('r', failure(1, 3_000_000, { cost: 0.25 }));

      expect(await b.evals.counts('r')).toEqual({ done: 6, failed: 4, spent: 0.5 + 0.125 + 3 * 0.125 + 0.25 });
      expect(await b.evals.counts('none')).toEqual({ done: 0, failed: 0, spent: 0 });
      expect(await b.evals.retryableCount('r', 3)).toBe(2);
      expect(await b.evals.retryableCount('r', 4)).toBe(3);
      expect(await b.evals.triesByItem('r', 3)).toEqual(
        new Map([
          [0, 0],
          [1, 1],
          [1024, 0],
          [1025, 0],
          [2049, 0],
          [3_072_000_001, 1],
        ]),
      );
      expect((await b.evals.triesByItem('r', 4)).get(1025)).toBe(3);
    } finally {
      await close();
    }
  });

  it('reads results by position then variant, one position, one variant, answers of a variant, and sums per variant', async () => {
    const { a, b, close } = await backend.open();
    try {
      await withDataset(a.datasets);
      await a.evals.addRun(run('r', '2026-01-01T00:00:00.000Z'));
      const results = [
        answer(1, 1, { cost: 0.25, input_tokens: 10, output_tokens: 5, content_chars: 100, answers: { urgent: false } }),
        answer(0, 1, { cost: 0.5, input_tokens: 20, output_tokens: 10, content_chars: 100 }),
        answer(1, 0, { cost: null, input_tokens: 30, output_tokens: 15, content_chars: 7, answered_at: '2026-01-01T00:02:00.000Z' }),
        answer(0, 2, { cost: 0.125, input_tokens: 1, output_tokens: 1, content_chars: 3 }),
      ];
      for (const r of results) await a.evals.putAnswer('r', r, { replace: false });
      const failed = failure(0, 0, { cost: 1, input_tokens: 1000 });
      await a.evals.putFailure('r', failed);

      expect(await b.evals.results('r')).toEqual([
        stored(failed, false),
        stored(results[2]!, true),
        stored(results[1]!, true),
        stored(results[0]!, true),
        stored(results[3]!, true),
      ]);
      expect(await b.evals.resultsAt('r', 1)).toEqual([stored(results[1]!, true), stored(results[0]!, true)]);
      expect(await b.evals.resultsAt('r', 1, 1)).toEqual([stored(results[0]!, true)]);
      expect(await b.evals.resultsAt('r', 5)).toEqual([]);
      expect(await b.evals.answersOf('r', 0)).toEqual([
        { position: 1, answers: { urgent: true }, answered_at: '2026-01-01T00:01:00.000Z' },
        { position: 2, answers: { urgent: true }, answered_at: '2026-01-01T00:01:00.000Z' },
      ]);
      // Failures are left out; a cost is the known ones summed (none known: null), the unknown ones counted.
      expect(await b.evals.answeredByVariant('r')).toEqual([
        { variant: 0, n: 2, cost: 0.625, unknown: 0, tokens: 32, chars: 103 },
        { variant: 1, n: 2, cost: 0.25, unknown: 1, tokens: 60, chars: 107 },
      ]);
      await a.evals.putAnswer('r', answer(2, 0, { cost: null, input_tokens: 1, output_tokens: 2, content_chars: 5 }), { replace: false });
      expect((await b.evals.answeredByVariant('r'))[2]).toEqual({ variant: 2, n: 1, cost: null, unknown: 1, tokens: 3, chars: 5 });
    } finally {
      await close();
    }
  });

  it("finds a model's newest answer to each item of a dataset over all its runs, and only that model's and that dataset's", async () => {
    const { a, b, close } = await backend.open();
    try {
      await withDataset(a.datasets);
      await withDataset(a.datasets, 'other');
      await a.evals.addRun(run('r1', '2026-01-01T00:00:00.000Z'));
      await a.evals.addRun(run('r2', '2026-01-02T00:00:00.000Z'));
      await a.evals.addRun(run('r3', '2026-01-03T00:00:00.000Z', { dataset_id: 'other' }));
      const at = (minute: number) => `2026-01-05T00:${String(minute).padStart(2, '0')}:00.000Z`;
      const m = { model_key: 'm' };
      await a.evals.putAnswer('r1', answer(0, 0, { ...m, answered_at: at(1), answers: { n: 'r1 p0 old' } }), { replace: false });
      await a.evals.putAnswer('r2', answer(1, 0, { ...m, answered_at: at(4), answers: { n: 'r2 p0 newest' } }), { replace: false });
      await a.evals.putAnswer('r2', answer(0, 0, { ...m, answered_at: at(2), answers: { n: 'r2 p0' } }), { replace: false });
      await a.evals.putAnswer('r1', answer(0, 1, { ...m, answered_at: at(3), answers: { n: 'r1 p1 newest' } }), { replace: false });
      // Not answers of this model or of this dataset, or not answers at all, however new.
      await a.evals.putAnswer('r1', answer(1, 1, { model_key: 'm (other label)', answered_at: at(9), answers: { n: 'other model' } }), { replace: false });
      await a.evals.putAnswer('r3', answer(0, 1, { ...m, answered_at: at(9), answers: { n: 'other dataset' } }), { replace: false });
      await a.evals.putFailure('r2', failure(0, 1, { ...m, answered_at: at(9) }));
      await a.evals.putAnswer('r1', answer(0, 2, { model_key: 'n', answered_at: at(9) }), { replace: false });

      expect(await b.evals.newestAnswers('ds', 'm')).toEqual([
        { position: 0, run_id: 'r2', variant: 1, at: at(4), answers: { n: 'r2 p0 newest' } },
        { position: 1, run_id: 'r1', variant: 0, at: at(3), answers: { n: 'r1 p1 newest' } },
      ]);
      expect(await b.evals.newestAnswers('ds', 'm', 1)).toEqual([{ position: 1, run_id: 'r1', variant: 0, at: at(3), answers: { n: 'r1 p1 newest' } }]);
      expect(await b.evals.newestAnswers('ds', 'm', 2)).toEqual([]);
      expect(await b.evals.newestAnswers('other', 'm')).toEqual([{ position: 1, run_id: 'r3', variant: 0, at: at(9), answers: { n: 'other dataset' } }]);
    } finally {
      await close();
    }
  });

  it("sums answered results' tokens per model as the run's variants name it, without its label", async () => {
    const { a, b, close } = await backend.open();
    try {
      await withDataset(a.datasets);
      await a.evals.addRun(run('r1', '2026-01-01T00:00:00.000Z'));
      await a.evals.addRun(run('r2', '2026-01-02T00:00:00.000Z', { variants: [{ model: 'groq/llama', label: 'eu' }, { model: 'openai/gpt-5' }] }));
      await a.evals.putAnswer('r1', answer(0, 0, { input_tokens: 100, output_tokens: 10 }), { replace: false });
      await a.evals.putAnswer('r1', answer(0, 1, { input_tokens: 200, output_tokens: 20 }), { replace: false });
      await a.evals.putAnswer('r1', answer(1, 0, { input_tokens: 1, output_tokens: 2 }), { replace: false });
      await a.evals.putAnswer('r2', answer(0, 0, { input_tokens: 3, output_tokens: 4 }), { replace: false });
      await a.evals.putAnswer('r2', answer(1, 0, { input_tokens: 5, output_tokens: 6 }), { replace: false });
      await a.evals.putFailure('r2', failure(1, 1, { input_tokens: 1000, output_tokens: 1000 }));
      const tokens = (await b.evals.answeredTokens()).sort((x, y) => (x.model < y.model ? -1 : 1));
      expect(tokens).toEqual([
        { model: 'groq/llama', requests: 2, input: 4, output: 6 },
        { model: 'openai/gpt-5', requests: 3, input: 305, output: 36 },
      ]);
    } finally {
      await close();
    }
  });

  it('keeps one calibration per set, model and question, the latest; lists them newest first or of one set and model by question', async () => {
    const { a, b, close } = await backend.open();
    try {
      const c = (question: string, temperature: number, created_at: string, model = 'openai/gpt-5') => ({
        set_key: 'set-1',
        model,
        question,
        temperature,
        created_at,
      });
      await a.evals.saveCalibration(c('urgent', 1.5, '2026-01-01T00:00:00.000Z'));
      await a.evals.saveCalibration(c('category', 0.75, '2026-01-02T00:00:00.000Z'));
      await a.evals.saveCalibration(c('urgent', 2.25, '2026-01-03T00:00:00.000Z'));
      await a.evals.saveCalibration(c('urgent', 1, '2026-01-04T00:00:00.000Z', 'groq/llama'));
      expect(await b.evals.calibrations()).toEqual([
        c('urgent', 1, '2026-01-04T00:00:00.000Z', 'groq/llama'),
        c('urgent', 2.25, '2026-01-03T00:00:00.000Z'),
        c('category', 0.75, '2026-01-02T00:00:00.000Z'),
      ]);
      expect(await b.evals.calibrations({ set_key: 'set-1', model: 'openai/gpt-5' })).toEqual([
        c('category', 0.75, '2026-01-02T00:00:00.000Z'),
        c('urgent', 2.25, '2026-01-03T00:00:00.000Z'),
      ]);
      expect(await b.evals.deleteCalibration({ set_key: 'set-1', model: 'openai/gpt-5', question: 'urgent' })).toBe(1);
      expect(await b.evals.deleteCalibration({ set_key: 'set-1', model: 'openai/gpt-5', question: 'urgent' })).toBe(0);
      expect((await a.evals.calibrations()).map((x) => x.question)).toEqual(['urgent', 'category']);
    } finally {
      await close();
    }
  });

  it("the change token moves when another connection stores a result or changes items, and at once after this connection's own", async () => {
    const { a, b, close } = await backend.open();
    try {
      await withDataset(a.datasets);
      await a.evals.addRun(run('r', '2026-01-01T00:00:00.000Z'));
      const moves = async (write: () => Promise<unknown>) => {
        const start = a.evals.changeToken();
        await write();
        await until(
          () => a.evals.changeToken(),
          (t) => t !== start,
        );
      };
      await moves(() => b.evals.putAnswer('r', answer(0, 0), { replace: false }));
      await moves(() => b.evals.putFailure('r', failure(1, 0)));
      await moves(() => b.datasets.addItems('ds', [{ id: 'i', state: 'x' }]));
      await moves(() => b.evals.removeRun('r'));

      await a.evals.addRun(run('own', '2026-01-01T00:00:00.000Z'));
      const own = a.evals.changeToken();
      await a.evals.putAnswer('own', answer(0, 0), { replace: false });
      expect(a.evals.changeToken()).not.toBe(own);
    } finally {
      await close();
    }
  });
});

describe('EvalStorage on Postgres, from two processes', () => {
  const postgres = postgresForFile();

  it('results written by two processes at once to the same items all count: every try, token and cost', async () => {
    const url = await postgres.url('two_processes_results');
    const db = await PgDatabase.open(url);
    try {
      const datasets = await PgDatasetStore.open(db);
      const evals = await PgEvalStore.open(db);
      await withDataset(datasets);
      await evals.addRun(run('r', '2026-01-01T00:00:00.000Z'));
      const writer = await bundled(join(import.meta.dirname, '..', '..', 'test-support', 'result-process.ts'));
      const positions = 300;
      try {
        expect(await Promise.all([0, 1].map((p) => writer.run([url, 'r', String(p), String(positions)])))).toEqual(['done\n', 'done\n']);
      } finally {
        writer.remove();
      }
      // Each process failed every item of variant 0 once (an eighth each) and answered half the items of variant 1 (a quarter each).
      expect(await evals.counts('r')).toEqual({ done: 2 * positions, failed: positions, spent: positions * 2 * 0.125 + positions * 0.25 });
      const tries = await evals.triesByItem('r', 10);
      expect([...tries.entries()].filter(([k]) => k % 1024 === 0).map(([, n]) => n)).toEqual(Array.from({ length: positions }, () => 2));
      const failures = (await evals.results('r')).filter((r) => !r.ok);
      expect(failures.map((r) => [r.input_tokens, r.output_tokens])).toEqual(Array.from({ length: positions }, () => [2, 4]));
    } finally {
      await db.close();
    }
  }, 60_000);
});
