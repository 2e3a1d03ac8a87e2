import { describe, expect, it } from 'vitest';
import { reliabilityOption, reliabilityTable } from './reliability-chart';

const bin = (confidence: number, accuracy: number, count: number) => ({ lower: 0, upper: 1, confidence, accuracy, count });
// Two models whose bins meet at one place, as the simulated fleet's did: their counts printed there read "n=10n=20".
const SERIES = [
  { model: 'sandbox/baseline-text', bins: [bin(0.55, 1, 10), bin(0.8, 0.5, 3)] },
  { model: 'sandbox/skewed-small', bins: [bin(0.55, 1, 20)] },
];

describe('reliability diagram', () => {
  it('prints no count beside the markers, where coinciding bins overprinted each other', () => {
    const models = reliabilityOption(SERIES).series.slice(1);
    expect(models.map((s) => (s as { label?: unknown }).label)).toEqual([{ show: false }, { show: false }]);
  });

  it("gives each marker's count on hover, named with its model", () => {
    const [, first, second] = reliabilityOption(SERIES).series;
    const tip = (s: typeof first) => (s as { tooltip: { formatter: (p: { value: number[] }) => string } }).tooltip.formatter;
    expect(tip(first)({ value: [0.55, 1, 10] })).toBe('sandbox/baseline-text\nstated 0.55 · observed 1.00 · n = 10');
    expect(tip(second)({ value: [0.55, 1, 20] })).toBe('sandbox/skewed-small\nstated 0.55 · observed 1.00 · n = 20');
  });

  it('lists every bin with its count in the chart’s table', () => {
    expect(reliabilityTable(SERIES)).toEqual({
      columns: ['model', 'stated confidence', 'observed accuracy', 'items (n)'],
      rows: [
        ['sandbox/baseline-text', '0.55', '1.00', '10'],
        ['sandbox/baseline-text', '0.80', '0.50', '3'],
        ['sandbox/skewed-small', '0.55', '1.00', '20'],
      ],
    });
  });
});
