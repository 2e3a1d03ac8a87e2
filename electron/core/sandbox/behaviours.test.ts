import { describe, expect, it } from 'vitest';
import { labelSet, questionText } from '../decisions/labels';
import { noulMetrics } from '../evaluations/reports/metrics';
import { SAMPLE_QUESTIONS, SAMPLE_ROWS } from '../samples/support-tickets';
import { BEHAVIOURS, promptHash } from './behaviours';

/** P(true) each simulated model gives the sample's "urgent" question, ticket by ticket. */
function urgent(model: string): { p: number; expected: boolean }[] {
  const q = SAMPLE_QUESTIONS['urgent']!;
  if (q.type === 'box') throw new Error('not a label question');
  const text = questionText(q, labelSet('urgent', q));
  return SAMPLE_ROWS.map((r) => {
    const read = BEHAVIOURS[model]!.read(`${r.state}\n\n`, text)!;
    return { p: read.probabilities[read.labels.indexOf('Yes')]!, expected: r.expected.urgent };
  });
}

describe('the simulated models differ as real ones do', () => {
  const sharp = noulMetrics(urgent('sandbox/sharp-large'));
  const mini = noulMetrics(urgent('sandbox/cheap-mini'));
  const skewed = urgent('sandbox/skewed-small');
  it('the dear one finds the urgent tickets; the skewed one never says yes and misses them all', () => {
    expect(sharp.recall!).toBeGreaterThan(0.7);
    expect(sharp.accuracy!).toBeGreaterThan(0.85);
    expect(Math.max(...skewed.map((x) => x.p))).toBeLessThanOrEqual(0.18);
    const m = noulMetrics(skewed);
    expect(m.recall).toBe(0);
    // Its accuracy is exactly the always-false baseline's.
    expect(m.accuracy).toBe(m.baseline!.accuracy);
  });
  it('the cheap one is surer than it is right: worse calibrated than the dear one', () => {
    expect(mini.ece!).toBeGreaterThan(sharp.ece!);
    expect(mini.accuracy!).toBeLessThan(sharp.accuracy!);
    // Stated nearly surely: most of its answers are below 0.05 or above 0.95.
    const sure = urgent('sandbox/cheap-mini').filter((x) => x.p < 0.05 || x.p > 0.95).length;
    expect(sure / SAMPLE_ROWS.length).toBeGreaterThan(0.7);
  });
  it('answers the same prompt the same way every time', () => {
    expect(urgent('sandbox/cheap-mini')).toEqual(urgent('sandbox/cheap-mini'));
    expect(promptHash('abc')).toBe(promptHash('abc'));
    expect(promptHash('abc')).not.toBe(promptHash('abd'));
  });
});
