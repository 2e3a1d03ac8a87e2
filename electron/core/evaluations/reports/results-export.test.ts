import { describe, expect, it } from 'vitest';
import type { EvalReport } from '../../../../shared/schemas/evaluation';
import { formatTable } from './results-export';

const model = (name: string, cost: number): EvalReport['models'][number] => ({
  model: name,
  items: 10,
  failed: 1,
  cost_usd: cost,
  cost_unknown: 0,
  input_tokens: 100,
  output_tokens: 10,
  latency_ms: { p50: 120, p95: 300 },
  questions: {
    late: { type: 'noul', n: 9, accuracy: 0.8, ece: 0.1, brier: 0.2, calibration: null },
    stars: { type: 'score', n: 9, exact: 0.5, calibration: null },
  },
});

describe('formatTable', () => {
  it('prints what belongs to a model once, on its first row, so the cost column adds up to the run', () => {
    const lines = formatTable({ dataset: { items: 10 }, interval_method: '', min_final_n: 30, models: [model('a/one', 0.5), model('b/two', 0.25)] })
      .trim()
      .split('\n');
    expect(lines).toHaveLength(5);
    const costs = lines
      .slice(1)
      .map((l) => l.split(/\s{2,}/))
      .filter((c) => c.length > 6)
      .map((c) => Number(c[7]));
    expect(costs).toEqual([0.5, 0.25]);
    expect(lines[2]).toMatch(/^a\/one\s+stars\s+9\s+exact 0\.500\s+–\s+–$/);
  });
});
