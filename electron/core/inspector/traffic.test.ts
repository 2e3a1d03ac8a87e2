import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempCore, type TempCore } from '../../test-support/temp-core';
import { trafficProfile } from './traffic';

describe("the user's own traffic", () => {
  let env: TempCore;
  beforeAll(async () => {
    env = await tempCore();
  });
  afterAll(() => env.cleanup());

  it('is the mean tokens of answered requests per model, from inspector runs and evaluation results', async () => {
    const s = env.core.store;
    expect(await trafficProfile(env.core.runStore, s)).toEqual({ models: [], all: null });
    // Two inspector runs of a/one (100 and 300 tokens in, 2 and 4 out), one that failed (left out).
    s.run(
      "INSERT INTO decisions (id, created_at, origin, model, status, latency_ms, question_count, input_tokens, output_tokens) VALUES ('d1', 1, 'inspector', 'a/one', 200, 1, 1, 100, 2), ('d2', 2, 'inspector', 'a/one', 200, 1, 1, 300, 4), ('d3', 3, 'inspector', 'a/one', 502, 1, 1, 999, 9)",
    );
    const ds = env.core.datasets.create('d', [{ id: 'x', state: 'x', expected: {} }]);
    s.run(
      "INSERT INTO eval_runs (id, name, dataset_id, set_key, request, variants, concurrency, status, created_at) VALUES ('r', 'r', ?, 'k', '{}', ?, 1, 'done', 'now')",
      [ds.id, JSON.stringify([{ model: 'b/two' }])],
    );
    s.run("INSERT INTO eval_results (run_id, variant, position, ok, input_tokens, output_tokens, latency_ms) VALUES ('r', 0, 0, 1, 50, 1, 1)");
    // (100 + 300) / 2 = 200 in, (2 + 4) / 2 = 3 out; overall (400 + 50) / 3 = 150 in, (6 + 1) / 3 out.
    expect(await trafficProfile(env.core.runStore, s)).toEqual({
      models: [
        { model: 'a/one', requests: 2, input_tokens: 200, output_tokens: 3 },
        { model: 'b/two', requests: 1, input_tokens: 50, output_tokens: 1 },
      ],
      all: { model: '*', requests: 3, input_tokens: 150, output_tokens: 7 / 3 },
    });
  });
});
