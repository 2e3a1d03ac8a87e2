import { describe, expect, it } from 'vitest';
import { storeBackends } from '../../test-support/store-backends';
import { until } from '../../test-support/until';
import { evaluationPorts, answer, failure, run, stored, withDataset } from '../../test-support/eval-store-fixtures';

/** The evaluation results' storage contract (the read side), on both backends. */
const backends = storeBackends(evaluationPorts);

describe.each(backends)('EvalResultStorage on %s', (_name, backend) => {
  it('counts results, failures to retry and the tries of each, keyed position * 1024 + variant', async () => {
    const { a, b, close } = await backend.open();
    try {
      await withDataset(a.datasets);
      await a.evalRuns.addRun(run('r', '2026-01-01T00:00:00.000Z'));
      await a.evalWork.putAnswer('r', answer(0, 0, { cost: 0.5 }), { replace: false });
      await a.evalWork.putFailure('r', failure(1, 0, { cost: 0.125 }));
      await a.evalWork.putFailure('r', failure(0, 1, { retryable: false, cost: null, error: 'malformed answer' }));
      for (let i = 0; i < 3; i += 1) await a.evalWork.putFailure('r', failure(1, 1, { cost: 0.125 }));
      await a.evalWork.putAnswer('r', answer(1, 2, { cost: null }), { replace: false });
      // Past two million items, the key is past what a 32-bit integer holds.
      await a.evalWork.putFailure('r', failure(1, 3_000_000, { cost: 0.25 }));

      expect(await b.evalResults.counts('r')).toEqual({ done: 6, failed: 4, spent: 0.5 + 0.125 + 3 * 0.125 + 0.25 });
      expect(await b.evalResults.counts('none')).toEqual({ done: 0, failed: 0, spent: 0 });
      expect(await b.evalResults.retryableCount('r', 3)).toBe(2);
      expect(await b.evalResults.retryableCount('r', 4)).toBe(3);
      expect(await b.evalResults.triesByItem('r', 3)).toEqual(
        new Map([
          [0, 0],
          [1, 1],
          [1024, 0],
          [1025, 0],
          [2049, 0],
          [3_072_000_001, 1],
        ]),
      );
      expect((await b.evalResults.triesByItem('r', 4)).get(1025)).toBe(3);
    } finally {
      await close();
    }
  });

  it('reads results by position then variant, one position, one variant, answers of a variant, and sums per variant', async () => {
    const { a, b, close } = await backend.open();
    try {
      await withDataset(a.datasets);
      await a.evalRuns.addRun(run('r', '2026-01-01T00:00:00.000Z'));
      const results = [
        answer(1, 1, { cost: 0.25, input_tokens: 10, output_tokens: 5, content_chars: 100, answers: { urgent: false } }),
        answer(0, 1, { cost: 0.5, input_tokens: 20, output_tokens: 10, content_chars: 100 }),
        answer(1, 0, { cost: null, input_tokens: 30, output_tokens: 15, content_chars: 7, answered_at: '2026-01-01T00:02:00.000Z' }),
        answer(0, 2, { cost: 0.125, input_tokens: 1, output_tokens: 1, content_chars: 3 }),
      ];
      for (const r of results) await a.evalWork.putAnswer('r', r, { replace: false });
      const failed = failure(0, 0, { cost: 1, input_tokens: 1000 });
      await a.evalWork.putFailure('r', failed);

      expect(await b.evalResults.results('r')).toEqual([
        stored(failed, false),
        stored(results[2]!, true),
        stored(results[1]!, true),
        stored(results[0]!, true),
        stored(results[3]!, true),
      ]);
      expect(await b.evalResults.resultsAt('r', 1)).toEqual([stored(results[1]!, true), stored(results[0]!, true)]);
      expect(await b.evalResults.resultsAt('r', 1, 1)).toEqual([stored(results[0]!, true)]);
      expect(await b.evalResults.resultsAt('r', 5)).toEqual([]);
      expect(await b.evalResults.answersOf('r', 0)).toEqual([
        { position: 1, answers: { urgent: true }, answered_at: '2026-01-01T00:01:00.000Z' },
        { position: 2, answers: { urgent: true }, answered_at: '2026-01-01T00:01:00.000Z' },
      ]);
      // Failures are left out; a cost is the known ones summed (none known: null), the unknown ones counted.
      expect(await b.evalResults.answeredByVariant('r')).toEqual([
        { variant: 0, n: 2, cost: 0.625, unknown: 0, tokens: 32, chars: 103 },
        { variant: 1, n: 2, cost: 0.25, unknown: 1, tokens: 60, chars: 107 },
      ]);
      await a.evalWork.putAnswer('r', answer(2, 0, { cost: null, input_tokens: 1, output_tokens: 2, content_chars: 5 }), { replace: false });
      expect((await b.evalResults.answeredByVariant('r'))[2]).toEqual({ variant: 2, n: 1, cost: null, unknown: 1, tokens: 3, chars: 5 });
    } finally {
      await close();
    }
  });

  it("finds a model's newest answer to each item of a dataset over all its runs, and only that model's and that dataset's", async () => {
    const { a, b, close } = await backend.open();
    try {
      await withDataset(a.datasets);
      await withDataset(a.datasets, 'other');
      await a.evalRuns.addRun(run('r1', '2026-01-01T00:00:00.000Z'));
      await a.evalRuns.addRun(run('r2', '2026-01-02T00:00:00.000Z'));
      await a.evalRuns.addRun(run('r3', '2026-01-03T00:00:00.000Z', { dataset_id: 'other' }));
      const at = (minute: number) => `2026-01-05T00:${String(minute).padStart(2, '0')}:00.000Z`;
      const m = { model_key: 'm' };
      await a.evalWork.putAnswer('r1', answer(0, 0, { ...m, answered_at: at(1), answers: { n: 'r1 p0 old' } }), { replace: false });
      await a.evalWork.putAnswer('r2', answer(1, 0, { ...m, answered_at: at(4), answers: { n: 'r2 p0 newest' } }), { replace: false });
      await a.evalWork.putAnswer('r2', answer(0, 0, { ...m, answered_at: at(2), answers: { n: 'r2 p0' } }), { replace: false });
      await a.evalWork.putAnswer('r1', answer(0, 1, { ...m, answered_at: at(3), answers: { n: 'r1 p1 newest' } }), { replace: false });
      // Not answers of this model or of this dataset, or not answers at all, however new.
      await a.evalWork.putAnswer('r1', answer(1, 1, { model_key: 'm (other label)', answered_at: at(9), answers: { n: 'other model' } }), { replace: false });
      await a.evalWork.putAnswer('r3', answer(0, 1, { ...m, answered_at: at(9), answers: { n: 'other dataset' } }), { replace: false });
      await a.evalWork.putFailure('r2', failure(0, 1, { ...m, answered_at: at(9) }));
      await a.evalWork.putAnswer('r1', answer(0, 2, { model_key: 'n', answered_at: at(9) }), { replace: false });

      expect(await b.evalResults.newestAnswers('ds', 'm')).toEqual([
        { position: 0, run_id: 'r2', variant: 1, at: at(4), answers: { n: 'r2 p0 newest' } },
        { position: 1, run_id: 'r1', variant: 0, at: at(3), answers: { n: 'r1 p1 newest' } },
      ]);
      expect(await b.evalResults.newestAnswers('ds', 'm', 1)).toEqual([{ position: 1, run_id: 'r1', variant: 0, at: at(3), answers: { n: 'r1 p1 newest' } }]);
      expect(await b.evalResults.newestAnswers('ds', 'm', 2)).toEqual([]);
      expect(await b.evalResults.newestAnswers('other', 'm')).toEqual([{ position: 1, run_id: 'r3', variant: 0, at: at(9), answers: { n: 'other dataset' } }]);
    } finally {
      await close();
    }
  });

  it("reads a model's newest answered items' times, tokens and providers, in any run, failures left out", async () => {
    const { a, b, close } = await backend.open();
    try {
      await withDataset(a.datasets);
      await a.evalRuns.addRun(run('r1', '2026-01-01T00:00:00.000Z'));
      await a.evalRuns.addRun(run('r2', '2026-01-02T00:00:00.000Z'));
      const at = (minute: number) => `2026-01-0${minute < 10 ? 1 : 2}T00:0${minute % 10}:00.000Z`;
      // Oldest first: 100 ms in the first run, then 200, 300 and 400 ms in the second.
      const timed = (position: number, ms: number, minute: number) =>
        answer(0, position, {
          model_key: 'm',
          latency_ms: ms,
          input_tokens: ms / 10,
          output_tokens: 1,
          answered_at: at(minute),
          provider: ms === 300 ? 'Swift, Bargain' : 'Bargain',
        });
      await a.evalWork.putAnswer('r1', timed(0, 100, 1), { replace: false });
      await a.evalWork.putAnswer('r2', timed(0, 200, 11), { replace: false });
      await a.evalWork.putAnswer('r2', timed(1, 300, 12), { replace: false });
      await a.evalWork.putAnswer('r2', timed(2, 400, 13), { replace: false });
      await a.evalWork.putFailure('r2', failure(0, 3, { model_key: 'm', latency_ms: 9_999 }));
      await a.evalWork.putAnswer('r2', answer(1, 0, { model_key: 'other', latency_ms: 5, answered_at: at(14) }), { replace: false });

      expect(await b.evalResults.recentItemTimes('m', 3)).toEqual([
        { ms: 400, tokens: 41, provider: 'Bargain' },
        { ms: 300, tokens: 31, provider: 'Swift, Bargain' },
        { ms: 200, tokens: 21, provider: 'Bargain' },
      ]);
      expect((await b.evalResults.recentItemTimes('m', 10)).map((r) => r.ms)).toEqual([400, 300, 200, 100]);
      expect(await b.evalResults.recentItemTimes('other', 10)).toEqual([{ ms: 5, tokens: 120, provider: 'openai' }]);
      expect(await b.evalResults.recentItemTimes('never-run', 10)).toEqual([]);
    } finally {
      await close();
    }
  });

  it("sums answered results' tokens per model as the run's variants name it, without its label", async () => {
    const { a, b, close } = await backend.open();
    try {
      await withDataset(a.datasets);
      await a.evalRuns.addRun(run('r1', '2026-01-01T00:00:00.000Z'));
      await a.evalRuns.addRun(run('r2', '2026-01-02T00:00:00.000Z', { variants: [{ model: 'groq/llama', label: 'eu' }, { model: 'openai/gpt-5' }] }));
      await a.evalWork.putAnswer('r1', answer(0, 0, { input_tokens: 100, output_tokens: 10 }), { replace: false });
      await a.evalWork.putAnswer('r1', answer(0, 1, { input_tokens: 200, output_tokens: 20, cost: null }), { replace: false });
      await a.evalWork.putAnswer('r1', answer(1, 0, { input_tokens: 1, output_tokens: 2 }), { replace: false });
      await a.evalWork.putAnswer('r2', answer(0, 0, { input_tokens: 3, output_tokens: 4 }), { replace: false });
      await a.evalWork.putAnswer('r2', answer(1, 0, { input_tokens: 5, output_tokens: 6 }), { replace: false });
      await a.evalWork.putFailure('r2', failure(1, 1, { input_tokens: 1000, output_tokens: 1000 }));
      const tokens = (await b.evalResults.answeredTokens()).sort((x, y) => (x.model < y.model ? -1 : 1));
      expect(tokens).toEqual([
        // Costs: 0.5 each where known; one of gpt-5's is unknown, so two of its three are priced.
        { model: 'groq/llama', requests: 2, input: 4, output: 6, cost: 1, priced: 2 },
        { model: 'openai/gpt-5', requests: 3, input: 305, output: 36, cost: 1, priced: 2 },
      ]);
    } finally {
      await close();
    }
  });

  it("the change token moves when another connection stores a result or changes items, and at once after this connection's own", async () => {
    const { a, b, close } = await backend.open();
    try {
      await withDataset(a.datasets);
      await a.evalRuns.addRun(run('r', '2026-01-01T00:00:00.000Z'));
      const moves = async (write: () => Promise<unknown>) => {
        const start = a.evalResults.changeToken();
        await write();
        await until(
          () => a.evalResults.changeToken(),
          (t) => t !== start,
        );
      };
      await moves(() => b.evalWork.putAnswer('r', answer(0, 0), { replace: false }));
      await moves(() => b.evalWork.putFailure('r', failure(1, 0)));
      await moves(() => b.datasets.addItems('ds', [{ id: 'i', state: 'x' }]));
      await moves(() => b.evalRuns.removeRun('r'));

      await a.evalRuns.addRun(run('own', '2026-01-01T00:00:00.000Z'));
      const own = a.evalResults.changeToken();
      await a.evalWork.putAnswer('own', answer(0, 0), { replace: false });
      expect(a.evalResults.changeToken()).not.toBe(own);
    } finally {
      await close();
    }
  });
});
