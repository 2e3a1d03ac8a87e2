import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DecisionsRequest } from '../../../../shared/schemas/decisions-request';
import type { Question } from '../../../../shared/schemas/question';
import { tempCore, type TempCore } from '../../../test-support/temp-core';
import { pngWithRect } from '../../../test-support/images';
import { SAMPLE_QUESTIONS, SAMPLE_ROWS } from '../../samples/support-tickets';
import { estimateRun } from './estimate';

/**
 * The expected cost against what a run is then billed, on the simulated providers with their
 * failures off. On a route with one endpoint nothing is left to chance: the expectation is the
 * bill, so every call the engine makes and every token the provider counts is accounted for.
 */
describe('the expected cost of a run', () => {
  let env: TempCore;
  beforeAll(async () => {
    env = await tempCore({ sandbox: { seed: 3, failures: false, timeScale: 0 } });
  });
  afterAll(() => env.cleanup());

  const runOf = async (
    request: DecisionsRequest,
    rows: { id: string; state: unknown; expected: Record<string, unknown> }[],
    variants: { model: string; provider?: Record<string, unknown> }[],
  ) => {
    const dataset = await env.core.datasets.create(`d-${Math.random()}`, rows as never);
    const estimate = await estimateRun(env.core, { request, dataset_id: dataset.id, variants: variants as never });
    const run = await env.core.evalRuns.start({ request, dataset_id: dataset.id, variants: variants as never, concurrency: 4 });
    const done = await env.core.evalRuns.wait(run.id);
    expect(done.status).toBe('done');
    expect(done.failed).toBe(0);
    return { estimate, spent: done.spent_usd };
  };

  it('is the bill on one chat endpoint, question by question (log-probabilities)', async () => {
    const request = { model: 'sandbox/baseline-text', state: '', questions: SAMPLE_QUESTIONS, provider: { only: ['sandbox-steady'] } } as DecisionsRequest;
    const { estimate, spent } = await runOf(request, SAMPLE_ROWS.slice(0, 12), [{ model: 'sandbox/baseline-text' }]);
    expect(estimate.cost_usd).not.toBeNull();
    expect(Math.abs(estimate.cost_usd! - spent) / spent).toBeLessThan(1e-9);
    expect(estimate.worst_usd!).toBeGreaterThan(estimate.cost_usd!);
  });

  it('is the bill on one decision host (one call for every question)', async () => {
    const request = { model: 'sandbox/decider', state: '', questions: SAMPLE_QUESTIONS, provider: { only: ['sandbox-verity'] } } as DecisionsRequest;
    const { estimate, spent } = await runOf(request, SAMPLE_ROWS.slice(0, 8), [{ model: 'sandbox/decider' }]);
    expect(Math.abs(estimate.cost_usd! - spent) / spent).toBeLessThan(1e-9);
  });

  it('is the bill for boxes over images, each image counted by its size', async () => {
    const questions: Record<string, Question> = { card: { type: 'box', instructions: 'the blue card' } };
    const request = { model: 'sandbox/baseline-vision', state: '', questions, provider: { only: ['sandbox-swift'] } } as DecisionsRequest;
    const rows = [
      { id: 'a.png', state: [{ type: 'image_url', image_url: { url: pngWithRect(400, 300, { x: 20, y: 30, w: 100, h: 80 }) } }], expected: {} },
      { id: 'b.png', state: [{ type: 'image_url', image_url: { url: pngWithRect(1200, 900, { x: 200, y: 300, w: 400, h: 200 }) } }], expected: {} },
    ];
    const { estimate, spent } = await runOf(request, rows, [{ model: 'sandbox/baseline-vision' }]);
    // 400 × 300 is one tile (255 tokens), 1200 × 900 scaled to 1024 × 768 four (765): the images dominate the bill.
    expect(estimate.input_tokens).toBeGreaterThan(255 + 765);
    expect(Math.abs(estimate.cost_usd! - spent) / spent).toBeLessThan(1e-9);
  });
});
