import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DecisionsRequest } from '../../../../shared/schemas/decisions-request';
import type { Question } from '../../../../shared/schemas/question';
import { tempCore, type TempCore } from '../../../test-support/temp-core';
import { changedItems, compareQuestion, type ComparedItem } from './compare';
import { compareRuns, pairOf } from './run-comparison';
import { addSamples, removeSamples } from '../../samples/samples';
import { SAMPLE_ROWS } from '../../samples/support-tickets';

const late: Question = { type: 'noul', instructions: 'Late?' };
const noul = (p: number) => ({ type: 'noul', noul: p });
/**
 * Four items, expected T T F F. Baseline P(true) .2 .8 .3 .9 → said F T F T: right on items 2 and 3 (accuracy .5).
 * Run P(true) .7 .8 .6 .1 → said T T T F: right on 1, 2 and 4 (accuracy .75). Item 1 got better (wrong → right),
 * item 3 worse (right → wrong), item 4 better; item 2 unchanged.
 */
const items: ComparedItem[] = [
  [true, 0.2, 0.7],
  [true, 0.8, 0.8],
  [false, 0.3, 0.6],
  [false, 0.9, 0.1],
].map(([expected, before, now], i) => ({
  position: i,
  id: `i${i + 1}`,
  text: `item ${i + 1}`,
  expected: { late: expected as boolean },
  baseline: { late: noul(before as number) },
  run: { late: noul(now as number) },
}));

describe('a run against its baseline', () => {
  it('gives each metric of both runs and their difference', () => {
    const q = compareQuestion('late', late, items);
    expect(q.n).toBe(4);
    const accuracy = q.metrics.find((m) => m.metric === 'accuracy')!;
    expect(accuracy).toMatchObject({ run: 0.75, baseline: 0.5, delta: 0.25, higher_is_better: true });
    // The paired interval holds the difference; four items leave it wide.
    expect(accuracy.interval!.low).toBeLessThanOrEqual(0.25);
    expect(accuracy.interval!.high).toBeGreaterThanOrEqual(0.25);
    // Recall: baseline found 1 of the 2 true items (.5), the run both (1). Brier: run (.09 + .04 + .36 + .01)/4 = .125.
    expect(q.metrics.find((m) => m.metric === 'recall')).toMatchObject({ run: 1, baseline: 0.5 });
    expect(q.metrics.find((m) => m.metric === 'brier')!.run).toBeCloseTo(0.125, 12);
    expect(q.metrics.find((m) => m.metric === 'brier')!.higher_is_better).toBe(false);
  });

  it('lists the answers that changed, worse first', () => {
    const changed = changedItems({ late }, items, 'm');
    expect(changed.map((c) => [c.id, c.change, c.baseline_answer, c.run_answer])).toEqual([
      ['i3', 'worse', 'no', 'yes'],
      ['i1', 'better', 'no', 'yes'],
      ['i4', 'better', 'yes', 'no'],
    ]);
  });

  it('pairs a model with the baseline model of its name, else of its place', () => {
    expect(pairOf('b', 0, ['a', 'b'])).toBe(1);
    expect(pairOf('c', 1, ['a', 'b'])).toBe(1);
    expect(pairOf('c', 5, ['a', 'b'])).toBe(0);
  });
});

describe('two stored runs compared, and the samples', () => {
  let env: TempCore;
  beforeAll(async () => {
    env = await tempCore({ sandbox: { seed: 3, failures: false, timeScale: 0 } });
  });
  afterAll(() => env.cleanup());

  it('adds the samples once, compares two runs of the sample set, refuses a baseline over other items, and removes the samples with their runs', async () => {
    const { set, dataset } = await addSamples(env.core);
    expect(set.sample).toBe(true);
    expect(dataset).toMatchObject({ sample: true, items: SAMPLE_ROWS.length });
    expect((await addSamples(env.core)).dataset.id).toBe(dataset.id);
    const request = (await env.core.questionSets.get(set.id)).request;
    const first = await env.core.evalRuns.start({ request, dataset_id: dataset.id, variants: [{ model: 'sandbox/baseline-text' }], concurrency: 8 });
    // The second run asks the urgent question in words the baseline finds in some tickets: its answers change.
    const edited = {
      ...request,
      questions: { ...request.questions, urgent: { type: 'noul', instructions: 'Charged twice, or locked out?' } },
    } as DecisionsRequest;
    const second = await env.core.evalRuns.start({ request: edited, dataset_id: dataset.id, variants: [{ model: 'sandbox/baseline-text' }], concurrency: 8 });
    await env.core.evalRuns.wait(first.id);
    await env.core.evalRuns.wait(second.id);
    expect((await env.core.evalRuns.setBaseline(second.id, first.id)).baseline_id).toBe(first.id);
    const c = await compareRuns({ results: env.core.evalResults, datasets: env.core.datasets }, second.id, first.id);
    expect(c.runs.map((r) => r.id)).toEqual([second.id, first.id]);
    expect((c.runs[0]!.questions['urgent'] as { instructions: string }).instructions).toBe('Charged twice, or locked out?');
    expect(c.pairs[0]!.questions['urgent']!.n).toBe(SAMPLE_ROWS.length);
    expect(c.changed_total).toBeGreaterThan(0);
    expect(c.changed.every((x) => x.question === 'urgent')).toBe(true);
    const order = c.changed.map((x) => ({ worse: 0, better: 1, changed: 2 })[x.change]);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    const other = await env.core.datasets.create('other', [{ id: 'x', state: 'x', expected: {} }]);
    const elsewhere = await env.core.evalRuns.start({ request, dataset_id: other.id, variants: [{ model: 'sandbox/baseline-text' }], concurrency: 1 });
    await env.core.evalRuns.wait(elsewhere.id);
    await expect(env.core.evalRuns.setBaseline(second.id, elsewhere.id)).rejects.toThrow(/over another dataset/);
    expect(await removeSamples(env.core)).toEqual({ sets: 1, datasets: 1 });
    expect((await env.core.evalRuns.list()).map((r) => r.id)).toEqual([elsewhere.id]);
    expect((await env.core.questionSets.list()).some((s) => s.sample)).toBe(false);
  });
});
