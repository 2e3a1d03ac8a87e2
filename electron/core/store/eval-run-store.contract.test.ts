import { describe, expect, it } from 'vitest';
import { storeBackends } from '../../test-support/store-backends';
import { evaluationPorts, answer, run, withDataset } from '../../test-support/eval-store-fixtures';

/** The run book's storage contract, on both backends. */
const backends = storeBackends(evaluationPorts);

describe.each(backends)('EvalRunStorage on %s', (_name, backend) => {
  it('keeps runs as given, lists the newest first (of a status when asked), names those of a dataset, and changes the fields asked', async () => {
    const { a, b, close } = await backend.open();
    try {
      await withDataset(a.datasets);
      await withDataset(a.datasets, 'other');
      const first = run('r1', '2026-01-01T00:00:00.000Z', { status: 'done', finished_at: '2026-01-01T01:00:00.000Z' });
      const second = run('r2', '2026-01-02T00:00:00.000Z', { calibrations: null, estimate: null, budget_usd: null, variants: [{ model: 'm' }] });
      const third = run('r3', '2026-01-03T00:00:00.000Z', { dataset_id: 'other', status: 'done', baseline_id: 'r1', message: 'all answered' });
      for (const r of [second, first, third]) await a.evalRuns.addRun(r);
      await expect(a.evalRuns.addRun(run('r4', '2026-01-04T00:00:00.000Z', { dataset_id: 'no-such-dataset' }))).rejects.toThrow();

      expect(await b.evalRuns.getRun('r1')).toEqual(first);
      expect(await b.evalRuns.getRun('r2')).toEqual(second);
      expect(JSON.stringify((await b.evalRuns.getRun('r1'))?.request)).toBe(JSON.stringify(first.request));
      expect(await b.evalRuns.getRun('nope')).toBeUndefined();
      expect((await b.evalRuns.listRuns({ limit: 2 })).map((r) => r.id)).toEqual(['r3', 'r2']);
      expect((await b.evalRuns.listRuns({ limit: 10, status: 'done' })).map((r) => r.id)).toEqual(['r3', 'r1']);
      expect((await b.evalRuns.runNames('ds')).sort()).toEqual(['run r1', 'run r2']);
      expect(await b.evalRuns.runNames('none')).toEqual([]);

      await b.evalRuns.updateRun('r2', { status: 'budget', message: 'budget reached', finished_at: '2026-01-02T02:00:00.000Z', budget_usd: 5 });
      await b.evalRuns.updateRun('r3', { baseline_id: null, message: null });
      await b.evalRuns.updateRun('r1', {});
      expect(await a.evalRuns.getRun('r2')).toEqual({
        ...second,
        status: 'budget',
        message: 'budget reached',
        finished_at: '2026-01-02T02:00:00.000Z',
        budget_usd: 5,
      });
      expect(await a.evalRuns.getRun('r3')).toEqual({ ...third, baseline_id: null, message: null });
      expect(await a.evalRuns.getRun('r1')).toEqual(first);

      await a.evalWork.putAnswer('r1', answer(0, 0), { replace: false });
      expect(await b.evalRuns.removeRun('r1')).toBe(true);
      expect(await b.evalRuns.removeRun('r1')).toBe(false);
      expect(await a.evalRuns.getRun('r1')).toBeUndefined();
      expect(await a.evalResults.results('r1')).toEqual([]);
    } finally {
      await close();
    }
  });
});
