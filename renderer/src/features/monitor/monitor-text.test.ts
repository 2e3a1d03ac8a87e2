import { describe, expect, it } from 'vitest';
import { accuracyText, driftText, msText, shareText, sharesText, type MonitoredQuestion } from './monitor-text';

const question = (over: Partial<MonitoredQuestion>): MonitoredQuestion => ({
  question: 'late',
  kind: 'noul',
  n: 20,
  shares: { no: 0.25, yes: 0.75 },
  mean_confidence: 0.7,
  box: null,
  reference: null,
  drift: 0.65,
  alert: true,
  accuracy: null,
  ...over,
});

describe('the monitor in words', () => {
  it('lists shares largest first, and boxes by their mean area and centre', () => {
    expect(sharesText(question({}))).toBe('yes 75.0% · no 25.0%');
    expect(sharesText(question({ kind: 'box', shares: {}, box: { area: 0.125, x: 0.5, y: 0.25 } }))).toBe('mean area 12.5%, centre 0.50, 0.25');
    expect(sharesText(null)).toBe('—');
  });

  it("says the drift's measure and the threshold of its kind", () => {
    expect(driftText(question({}))).toBe('0.650 yes-rate change (alert past 0.10)');
    expect(driftText(question({ kind: 'choice', drift: 0.31 }))).toBe('0.310 PSI (alert past 0.20)');
    expect(driftText(question({ drift: null }))).toBe('— (a window has no answers)');
  });

  it('gives live accuracy with its interval and count, or says none was reviewed', () => {
    expect(accuracyText({ reviewed: 4, correct: 2, accuracy: 0.5, interval: { low: 0.15, high: 0.85 } })).toBe(
      '50.0% (95% interval 15.0%–85.0%), 2 of 4 reviewed',
    );
    expect(accuracyText(null)).toBe('none reviewed yet');
  });

  it('writes shares, and latency in ms or s, and says when a figure was not kept', () => {
    expect(shareText(0.4)).toBe('40.0%');
    expect(shareText(null)).toBe('— (not kept for these captures)');
    expect(msText(1050)).toBe('1.05 s');
    expect(msText(87.4)).toBe('87 ms');
    expect(msText(null)).toBe('—');
  });
});
