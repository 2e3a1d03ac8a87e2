import { sqliteOf } from '../../test-support/sqlite-of';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempCore, type TempCore } from '../../test-support/temp-core';
import { trafficProfile } from './traffic';
import { SqliteRunStore } from '../store/sqlite/run-store';
import type { StoredRun } from '../store/ports';

describe("the user's own traffic", () => {
  let env: TempCore;
  beforeAll(async () => {
    env = await tempCore();
  });
  afterAll(() => env.cleanup());

  it('is the mean tokens of answered requests per model, from inspector runs and evaluation results', async () => {
    expect(await trafficProfile(env.core.runStore, env.core.evalResults)).toEqual({ models: [], all: null });
    // Two inspector runs of a/one (100 and 300 tokens in, 2 and 4 out), one that failed (left out).
    const runs = new SqliteRunStore(sqliteOf(env.core));
    const run = (id: string, status: number, input: number, output: number, cost: number | null = null): StoredRun => ({
      id,
      created_at: 1,
      origin: 'inspector',
      key_id: null,
      session_id: null,
      user: null,
      model: 'a/one',
      provider: null,
      endpoint_id: null,
      status,
      latency_ms: 1,
      input_tokens: input,
      output_tokens: output,
      cost,
      methods: null,
      question_count: 1,
      request: null,
      response: null,
      set_id: null,
      label: null,
      routing: null,
    });
    await runs.add(run('d1', 200, 100, 2, 0.002));
    await runs.add(run('d2', 200, 300, 4, 0.004));
    await runs.add(run('d3', 502, 999, 9));
    const ds = await env.core.datasets.create('d', [{ id: 'x', state: 'x', expected: {} }]);
    await env.core.storage.evalRuns.addRun({
      id: 'r',
      name: 'r',
      dataset_id: ds.id,
      set_key: 'k',
      request: {},
      variants: [{ model: 'b/two' }],
      concurrency: 1,
      budget_usd: null,
      status: 'done',
      message: null,
      created_at: 'now',
      finished_at: null,
      calibrations: null,
      baseline_id: null,
      estimate: null,
    });
    await env.core.storage.evalWork.putAnswer(
      'r',
      {
        variant: 0,
        position: 0,
        answers: {},
        raw_answers: null,
        methods: null,
        attempts: null,
        provider: null,
        input_tokens: 50,
        output_tokens: 1,
        cost: null,
        latency_ms: 1,
        error: null,
        answered_at: 'now',
        model_key: 'b/two',
        content_chars: 3,
      },
      { replace: false },
    );
    // (100 + 300) / 2 = 200 in, (2 + 4) / 2 = 3 out; overall (400 + 50) / 3 = 150 in, (6 + 1) / 3 out.
    // Cost per request over those priced: a/one (0.002 + 0.004) / 2; b/two's is unknown; overall the same two.
    expect(await trafficProfile(env.core.runStore, env.core.evalResults)).toEqual({
      models: [
        { model: 'a/one', requests: 2, input_tokens: 200, output_tokens: 3, cost_usd: 0.003 },
        { model: 'b/two', requests: 1, input_tokens: 50, output_tokens: 1, cost_usd: null },
      ],
      all: { model: '*', requests: 3, input_tokens: 150, output_tokens: 7 / 3, cost_usd: 0.003 },
    });
  });
});
