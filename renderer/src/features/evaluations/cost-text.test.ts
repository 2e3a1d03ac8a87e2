import { describe, expect, it } from 'vitest';
import type { EvalRun } from '../../../../shared/schemas/evaluation';
import { costLines, offBy } from './cost-text';

const run = (over: Partial<EvalRun>): EvalRun =>
  ({
    status: 'done',
    in_flight: 0,
    done: 40,
    total: 40,
    spent_usd: 0.0011,
    expected_usd: null,
    expected_from: 40,
    estimate: { expected_usd: 0.001, worst_usd: 0.02, input_tokens: 4000, output_tokens: 40 },
    ...over,
  }) as EvalRun;

describe('estimate against actual', () => {
  it('names the expected cost and the worst case apart, and the actual beside the expected one when done', () => {
    const lines = costLines(run({}));
    expect(lines[0]).toBe(
      'Estimate at the start: expected $0.00100 · worst case $0.0200 (every request tried on every endpoint of its route with the longest replies)',
    );
    // 0.0011 against 0.001: (0.0011 − 0.001) / 0.001 = +10%.
    expect(lines[1]).toBe('Actual: $0.00110, +10% against the expected cost');
  });
  it("in short (Boxes' toolbar), without what the worst case means", () => {
    expect(costLines(run({}), { short: true })).toEqual([
      'Estimate at the start: expected $0.00100 · worst case $0.0200',
      'Actual: $0.00110, +10% against the expected cost',
    ]);
  });
  it('while running, says the expectation refined from the answered items', () => {
    const lines = costLines(run({ status: 'running', done: 8, spent_usd: 0.0002, expected_usd: 0.00095, expected_from: 8 }));
    expect(lines[1]).toBe('Expected now: $0.000950 for all 40 requests: $0.000200 spent so far, and the requests left at what the 8 answered ones cost each');
  });
  it('with the likely range the estimate stated, says whether the actual fell inside it', () => {
    const ranged = { expected_usd: 0.001, low_usd: 0.0009, high_usd: 0.0012, worst_usd: 0.02, input_tokens: 4000, output_tokens: 40 };
    const lines = costLines(run({ estimate: ranged }), { short: true });
    expect(lines).toEqual([
      'Estimate at the start: expected $0.00100 (likely $0.000900 – $0.00120) · worst case $0.0200',
      'Actual: $0.00110, +10% against the expected cost, inside the likely range',
    ]);
    expect(costLines(run({ estimate: ranged, spent_usd: 0.0013 }), { short: true })[1]).toBe(
      'Actual: $0.00130, +30% against the expected cost, outside the likely range',
    );
  });
  it('signs the difference and says when nothing was expected', () => {
    expect(offBy(0.75, 1)).toBe('−25% against the expected cost');
    expect(offBy(1.05, 1)).toBe('+5.0% against the expected cost');
    expect(offBy(0, 0)).toBe('as expected');
  });
});
