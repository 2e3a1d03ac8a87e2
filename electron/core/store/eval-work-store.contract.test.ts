import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { bundled, postgresForFile, storeBackends } from '../../test-support/store-backends';
import { evaluationPorts, answer, failure, run, stored, withDataset } from '../../test-support/eval-store-fixtures';
import { PgDatabase } from './postgres/database';
import { PgDatasetStore } from './postgres/dataset-store';
import { pgEvaluationStorage } from './postgres/eval-store';

/** The sender's storage contract (results written, a run's lease, a team's claims, shared budget and waits), on both backends. */
const backends = storeBackends(evaluationPorts);

describe.each(backends)('EvalWorkStorage on %s', (_name, backend) => {
  it("a run's lease goes to one owner at a time: renewed by it, taken by another only once it ended or was given back", async () => {
    const { a, b, close } = await backend.open();
    try {
      await withDataset(a.datasets);
      await a.evalRuns.addRun(run('r', '2026-01-01T00:00:00.000Z'));
      const t = 1_795_689_684_240.25;
      expect(await a.evalWork.leaseRun('r', 'host-a', t, t + 30_000)).toBe(true);
      // Another instance, at once and just before the lease ends: refused.
      expect(await b.evalWork.leaseRun('r', 'host-b', t + 1, t + 30_001)).toBe(false);
      expect(await b.evalWork.leaseRun('r', 'host-b', t + 29_999, t + 59_999)).toBe(false);
      // Its owner renews it.
      expect(await a.evalWork.leaseRun('r', 'host-a', t + 10_000, t + 40_000)).toBe(true);
      expect(await b.evalWork.leaseRun('r', 'host-b', t + 35_000, t + 65_000)).toBe(false);
      // Once it ended, another takes it, and the first may not renew it.
      expect(await b.evalWork.leaseRun('r', 'host-b', t + 40_001, t + 70_001)).toBe(true);
      expect(await a.evalWork.leaseRun('r', 'host-a', t + 40_002, t + 70_002)).toBe(false);
      // Given back by someone else: nothing; by its owner: free at once.
      await a.evalWork.releaseRun('r', 'host-a');
      expect(await a.evalWork.leaseRun('r', 'host-a', t + 40_003, t + 70_003)).toBe(false);
      await b.evalWork.releaseRun('r', 'host-b');
      expect(await a.evalWork.leaseRun('r', 'host-a', t + 40_004, t + 70_004)).toBe(true);
      expect(await a.evalWork.leaseRun('missing', 'host-a', t, t + 1)).toBe(false);
      // A lease is not part of the run as stored.
      expect(await b.evalRuns.getRun('r')).toEqual(run('r', '2026-01-01T00:00:00.000Z'));
    } finally {
      await close();
    }
  });

  it("a spread run's items are claimed by one owner at a time: concurrent claims never share an item, a lapsed claim is taken again, renewal keeps it", async () => {
    const { a, b, close } = await backend.open();
    try {
      await withDataset(a.datasets);
      await a.evalRuns.addRun(run('r', '2026-01-01T00:00:00.000Z', { status: 'paused' }));
      const t = 1_795_689_684_240;
      const work = Array.from({ length: 20 }, (_, i) => ({ variant: i % 2, position: Math.floor(i / 2) }));
      // Nothing to claim before the run is spread.
      expect(await a.evalWork.claimWork('r', 'a', t, t + 20_000, 5)).toEqual([]);
      expect(await a.evalWork.spreadRun('r', 'a', work, t)).toBe(true);
      expect((await b.evalRuns.getRun('r'))!.status).toBe('running');
      expect(await b.evalWork.spreadRuns()).toEqual(['r']);
      // Two connections claiming at once, many times: every item once, none twice.
      const claims = await Promise.all(
        Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? a : b).evalWork.claimWork('r', i % 2 === 0 ? 'a' : 'b', t, t + 20_000, 3)),
      );
      const taken = claims.flat().map((w) => `${w.variant}/${w.position}`);
      expect(new Set(taken).size).toBe(taken.length);
      expect(taken.length).toBe(20);
      expect(await a.evalWork.claimWork('r', 'c', t + 1, t + 20_000, 5)).toEqual([]);
      // Renewed by b: its claims outlive a's, which lapse and go to c.
      const ofB = claims.filter((_, i) => i % 2 === 1).flat();
      expect(await b.evalWork.renewClaims('r', 'b', t + 40_000)).toEqual({ status: 'running', not_before: null, held: ofB.length });
      const retaken = await a.evalWork.claimWork('r', 'c', t + 30_000, t + 50_000, 100);
      expect(retaken.length).toBe(20 - ofB.length);
      expect(retaken.every((w) => !ofB.some((o) => o.variant === w.variant && o.position === w.position))).toBe(true);
      // a's renewal finds none of its claims left.
      expect((await a.evalWork.renewClaims('r', 'a', t + 60_000))!.held).toBe(0);
      // Given back, b's claims are claimable at once.
      await b.evalWork.releaseClaims('r', 'b');
      expect((await a.evalWork.claimWork('r', 'c', t + 30_001, t + 50_000, 100)).length).toBe(ofB.length);
      // Paused: nothing is claimed, even lapsed claims.
      expect(await a.evalWork.stopRun('r', 'paused', null, null)).toBe(true);
      expect(await a.evalWork.stopRun('r', 'cancelled', null, null)).toBe(false);
      expect(await b.evalWork.claimWork('r', 'b', t + 90_000, t + 100_000, 100)).toEqual([]);
    } finally {
      await close();
    }
  });

  it("a stored result ends its item's claim, and the run is marked done once, by the call that finds no claim left", async () => {
    const { a, b, close } = await backend.open();
    try {
      await withDataset(a.datasets);
      await a.evalRuns.addRun(run('r', '2026-01-01T00:00:00.000Z'));
      const t = 1_795_689_684_240;
      // Another owner sending the run alone (its lease live): not spread under it.
      expect(await a.evalWork.leaseRun('r', 'solo', t, t + 30_000)).toBe(true);
      expect(await a.evalWork.spreadRun('r', 'a', [{ variant: 0, position: 0 }], t)).toBe(false);
      await a.evalWork.releaseRun('r', 'solo');
      expect(
        await a.evalWork.spreadRun(
          'r',
          'a',
          [
            { variant: 0, position: 0 },
            { variant: 1, position: 0 },
          ],
          t,
        ),
      ).toBe(true);
      expect(await a.evalWork.claimWork('r', 'a', t, t + 20_000, 1)).toEqual([{ variant: 0, position: 0 }]);
      expect(await b.evalWork.claimWork('r', 'b', t, t + 20_000, 1)).toEqual([{ variant: 1, position: 0 }]);
      await a.evalWork.putAnswer('r', answer(0, 0), { replace: false });
      expect(await a.evalWork.finishIfDrained('r', '2026-01-01T00:02:00.000Z', t)).toBe(false);
      await b.evalWork.putFailure('r', failure(1, 0));
      // Spread again (a resume): stored items are not put back when not given.
      const [first, second] = await Promise.all([
        a.evalWork.finishIfDrained('r', '2026-01-01T00:02:00.000Z', t),
        b.evalWork.finishIfDrained('r', '2026-01-01T00:02:00.000Z', t),
      ]);
      expect([first, second].filter(Boolean)).toHaveLength(1);
      expect(await a.evalRuns.getRun('r')).toMatchObject({ status: 'done', finished_at: '2026-01-01T00:02:00.000Z' });
      expect(await b.evalWork.spreadRuns()).toEqual([]);
    } finally {
      await close();
    }
  });

  it("the budget holds every claim's worst case and every stored cost, whoever holds them; a lapsed item's owner is told it lost it", async () => {
    const { a, b, close } = await backend.open();
    try {
      await withDataset(a.datasets);
      await a.evalRuns.addRun(run('r', '2026-01-01T00:00:00.000Z', { budget_usd: 1 }));
      const t = 1_795_689_684_240;
      const work = [0, 1, 2, 3].map((position) => ({ variant: 0, position }));
      await a.evalWork.spreadRun('r', 'a', work, t);
      const [w0, w1] = await a.evalWork.claimWork('r', 'a', t, t + 20_000, 2);
      const [w2, w3] = await b.evalWork.claimWork('r', 'b', t, t + 20_000, 2);
      expect(await a.evalWork.reserveBudget('r', 'a', w0!, 0.4)).toEqual({ reserved: true });
      expect(await b.evalWork.reserveBudget('r', 'b', w2!, 0.4)).toEqual({ reserved: true });
      // 0.8 held: a third 0.4 waits, though it would fit with nothing held.
      expect(await a.evalWork.reserveBudget('r', 'a', w1!, 0.4)).toEqual({ reserved: false, reason: 'held', spent: 0, held: 0.8, budget: 1 });
      // Asked again for the same item, its own hold is not counted twice.
      expect(await a.evalWork.reserveBudget('r', 'a', w0!, 0.2)).toEqual({ reserved: true });
      // Stored at a cost of 0.5: the hold goes with the claim, the cost counts.
      await a.evalWork.putAnswer('r', answer(0, w0!.position, { cost: 0.5 }), { replace: false });
      expect(await b.evalWork.reserveBudget('r', 'b', w3!, 0.2)).toEqual({ reserved: false, reason: 'held', spent: 0.5, held: 0.4, budget: 1 });
      expect(await b.evalWork.reserveBudget('r', 'b', w3!, 0.6)).toEqual({ reserved: false, reason: 'budget', spent: 0.5, held: 0.4, budget: 1 });
      expect(await b.evalWork.reserveBudget('r', 'b', w3!, 0.1)).toEqual({ reserved: true });
      // a's claim on w1 lapses (b renewed its own) and b takes it: a is told it is no longer its to send.
      await b.evalWork.renewClaims('r', 'b', t + 60_000);
      const taken = await b.evalWork.claimWork('r', 'b', t + 30_000, t + 50_000, 5);
      expect(taken).toEqual([w1]);
      expect(await a.evalWork.reserveBudget('r', 'a', w1!, 0.01)).toEqual({ reserved: false, reason: 'lost' });
      // A Retry-After seen anywhere is read everywhere, the later wait kept.
      await a.evalWork.waitUntil('r', t + 5_000);
      await b.evalWork.waitUntil('r', t + 2_000);
      expect((await b.evalWork.renewClaims('r', 'b', t + 60_000))!.not_before).toBe(t + 5_000);
    } finally {
      await close();
    }
  });

  it('reservations from two connections at once never take more room than the budget has', async () => {
    const { a, b, close } = await backend.open();
    try {
      await withDataset(a.datasets);
      await a.evalRuns.addRun(run('r', '2026-01-01T00:00:00.000Z', { budget_usd: 1 }));
      const t = 1_795_689_684_240;
      await a.evalWork.spreadRun(
        'r',
        'a',
        Array.from({ length: 20 }, (_, position) => ({ variant: 0, position })),
        t,
      );
      const mine = await a.evalWork.claimWork('r', 'a', t, t + 20_000, 10);
      const theirs = await b.evalWork.claimWork('r', 'b', t, t + 20_000, 10);
      // 0.3 each: three fit in 1, a fourth would not.
      const answers = await Promise.all([
        ...mine.map((w) => a.evalWork.reserveBudget('r', 'a', w, 0.3)),
        ...theirs.map((w) => b.evalWork.reserveBudget('r', 'b', w, 0.3)),
      ]);
      expect(answers.filter((x) => x.reserved)).toHaveLength(3);
      expect(answers.filter((x) => !x.reserved && x.reason === 'held')).toHaveLength(17);
    } finally {
      await close();
    }
  });

  it('a failure sent again counts a try and adds up its tokens and cost; an answer replaces it; an answer stays unless replaced on purpose', async () => {
    const { a, b, close } = await backend.open();
    try {
      await withDataset(a.datasets);
      await a.evalRuns.addRun(run('r', '2026-01-01T00:00:00.000Z'));
      const tries = async () => (await b.evalResults.triesByItem('r', 10)).get(7 * 1024 + 1);

      const first = failure(1, 7, { cost: null, input_tokens: 10, output_tokens: 1, error: 'timeout' });
      await a.evalWork.putFailure('r', first);
      expect(await b.evalResults.resultsAt('r', 7)).toEqual([stored(first, false)]);
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
      await a.evalWork.putFailure('r', second);
      expect(await b.evalResults.resultsAt('r', 7)).toEqual([stored(second, false, { input_tokens: 15, output_tokens: 3, cost: 0.25 })]);
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
      await a.evalWork.putAnswer('r', answered, { replace: false });
      const afterAnswer = stored(answered, true, { input_tokens: 115, output_tokens: 23, cost: 0.75 });
      expect(await b.evalResults.resultsAt('r', 7)).toEqual([afterAnswer]);
      // An answer is not a failure to retry.
      expect(await tries()).toBe(0);

      // Over an answer: a failure changes nothing, nor does an answer unless it replaces on purpose.
      await a.evalWork.putFailure('r', failure(1, 7, { cost: 1 }));
      await a.evalWork.putAnswer('r', answer(1, 7, { answers: { urgent: false }, cost: 1 }), { replace: false });
      expect(await b.evalResults.resultsAt('r', 7)).toEqual([afterAnswer]);

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
      await b.evalWork.putAnswer('r', again, { replace: true });
      expect(await a.evalResults.resultsAt('r', 7)).toEqual([stored(again, true, { input_tokens: 122, output_tokens: 26, cost: 0.75 })]);
      expect(await a.evalResults.counts('r')).toEqual({ done: 1, failed: 0, spent: 0.75 });
    } finally {
      await close();
    }
  });

  it("one turn's results share a commit in the order they were made, and each is there once its promise resolves", async () => {
    const { a, b, close } = await backend.open();
    try {
      await withDataset(a.datasets);
      await a.evalRuns.addRun(run('r', '2026-01-01T00:00:00.000Z'));
      // In one turn: a failure then an answer of one item (the answer replaces it, tokens added), an answer then
      // a failure of another (the answer stays), and forty more answers.
      const writes = [
        a.evalWork.putFailure('r', failure(0, 0, { input_tokens: 1, output_tokens: 1, cost: 0.125 })),
        a.evalWork.putAnswer('r', answer(0, 0, { input_tokens: 2, output_tokens: 2, cost: 0.25 }), { replace: false }),
        a.evalWork.putAnswer('r', answer(1, 0, { input_tokens: 2, output_tokens: 2, cost: 0.25 }), { replace: false }),
        a.evalWork.putFailure('r', failure(1, 0, { input_tokens: 1, output_tokens: 1, cost: 0.125 })),
        ...Array.from({ length: 40 }, (_, i) => a.evalWork.putAnswer('r', answer(i % 2, 1 + Math.floor(i / 2), { cost: 0.25 }), { replace: false })),
      ];
      await Promise.all(writes);
      expect(await b.evalResults.counts('r')).toEqual({ done: 42, failed: 0, spent: 0.375 + 0.25 + 40 * 0.25 });
      const [first, second] = await b.evalResults.resultsAt('r', 0);
      expect([first?.ok, first?.input_tokens, first?.cost]).toEqual([true, 3, 0.375]);
      expect([second?.ok, second?.input_tokens, second?.cost]).toEqual([true, 2, 0.25]);
      // A write refused (its run is unknown) is refused to its caller.
      await expect(a.evalWork.putAnswer('no-such-run', answer(0, 0), { replace: false })).rejects.toThrow();
      await a.evalWork.putAnswer('r', answer(0, 99), { replace: false });
      expect((await b.evalResults.resultsAt('r', 99)).length).toBe(1);
    } finally {
      await close();
    }
  });
});

describe('EvalWorkStorage on Postgres, from two processes', () => {
  const postgres = postgresForFile();

  it('results written by two processes at once to the same items all count: every try, token and cost', async () => {
    const url = await postgres.url('two_processes_results');
    const db = await PgDatabase.open(url);
    try {
      const datasets = await PgDatasetStore.open(db);
      const evals = await pgEvaluationStorage(db);
      await withDataset(datasets);
      await evals.evalRuns.addRun(run('r', '2026-01-01T00:00:00.000Z'));
      const writer = await bundled(join(import.meta.dirname, '..', '..', 'test-support', 'result-process.ts'));
      const positions = 300;
      try {
        expect(await Promise.all([0, 1].map((p) => writer.run([url, 'r', String(p), String(positions)])))).toEqual(['done\n', 'done\n']);
      } finally {
        writer.remove();
      }
      // Each process failed every item of variant 0 once (an eighth each) and answered half the items of variant 1 (a quarter each).
      expect(await evals.evalResults.counts('r')).toEqual({ done: 2 * positions, failed: positions, spent: positions * 2 * 0.125 + positions * 0.25 });
      const tries = await evals.evalResults.triesByItem('r', 10);
      expect([...tries.entries()].filter(([k]) => k % 1024 === 0).map(([, n]) => n)).toEqual(Array.from({ length: positions }, () => 2));
      const failures = (await evals.evalResults.results('r')).filter((r) => !r.ok);
      expect(failures.map((r) => [r.input_tokens, r.output_tokens])).toEqual(Array.from({ length: positions }, () => [2, 4]));
    } finally {
      await db.close();
    }
  }, 60_000);
});
