import { describe, expect, it } from 'vitest';
import { compareWindows, driftOf, figuresOf } from './drift';

const noul = (p: number) => ({ type: 'noul', noul: p });
const choice = (c: string, confidence = 0.8) => ({ type: 'choice', choice: c, confidence });

describe('drift between two windows of live answers', () => {
  it('a yes/no question drifts by its yes-rate; alert past 10 points', () => {
    const before = [noul(0.9), noul(0.2), noul(0.1), noul(0.3)].map((a) => ({ late: a }));
    const after = [noul(0.9), noul(0.8), noul(0.6), noul(0.3)].map((a) => ({ late: a }));
    const [late] = compareWindows(after, before);
    expect(late).toMatchObject({ kind: 'noul', n: 4, shares: { yes: 0.75, no: 0.25 }, alert: true });
    expect(late!.drift).toBeCloseTo(0.5, 10);
    expect(late!.mean_confidence).toBeCloseTo(0.65, 10);
    expect(compareWindows(before, before)[0]).toMatchObject({ drift: 0, alert: false });
  });

  it('a choice question drifts by its population stability index, worked by hand', () => {
    const now = figuresOf('mood', [choice('calm'), choice('calm'), choice('calm'), choice('angry')])!;
    const before = figuresOf('mood', [choice('calm'), choice('angry')])!;
    // (0.75 − 0.5)·ln(0.75/0.5) + (0.25 − 0.5)·ln(0.25/0.5)
    expect(driftOf(now, before)).toBeCloseTo(0.25 * Math.log(1.5) + -0.25 * Math.log(0.5), 10);
    // An option new to one window counts, floored at 0.0001 rather than divided by zero.
    const fresh = figuresOf('mood', [choice('sad')])!;
    expect(driftOf(fresh, before)).toBeGreaterThan(5);
  });

  it('boxes drift by their centre or area; a window with no answers has no drift', () => {
    const box = (top: number, left: number, size: number) => ({ type: 'box', box: { top, left, bottom: top + size, right: left + size } });
    const [shelf] = compareWindows([{ shelf: box(0.5, 0.5, 0.2) }], [{ shelf: box(0.1, 0.5, 0.2) }]);
    expect(shelf!.drift).toBeCloseTo(0.4, 10);
    expect(shelf!.box).toEqual({ area: expect.closeTo(0.04, 10), x: expect.closeTo(0.6, 10), y: expect.closeTo(0.6, 10) });
    expect(compareWindows([{ late: noul(0.9) }], [])).toMatchObject([{ drift: null, alert: false, reference: null }]);
  });
});
