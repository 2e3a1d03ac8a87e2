import { describe, expect, it } from 'vitest';
import { fitItemTime, providerMix, runPace, timeAt } from './pace';

describe("a run's pace from its model's newest items", () => {
  it('fits item times on their tokens: a fixed part and a part per token', () => {
    // 50 ms + 2 ms a token, exactly.
    const fit = fitItemTime([10, 20, 40, 80].map((tokens) => ({ tokens, ms: 50 + 2 * tokens })))!;
    expect(fit.base).toBeCloseTo(50, 9);
    expect(fit.perToken).toBeCloseTo(2, 9);
    expect(runPace(fit, 'm', 4, 1).itemTime!(60).ms).toBeCloseTo(170, 9);
  });

  it('items of one size give their mean; a line crossing below zero goes through the origin; none gives nothing', () => {
    expect(
      fitItemTime([
        { tokens: 30, ms: 10 },
        { tokens: 30, ms: 30 },
      ]),
    ).toEqual({ base: 20, perToken: 0, items: 2, minTokens: 30, maxTokens: 30 });
    // Through (10, 0) and (20, 100): the line would be -100 ms at no tokens. Through the origin: Σms·t / Σt² = 2000 / 500 = 4 ms a token.
    expect(
      fitItemTime([
        { tokens: 10, ms: 0 },
        { tokens: 20, ms: 100 },
      ]),
    ).toEqual({ base: 0, perToken: 4, items: 2, minTokens: 10, maxTokens: 20 });
    // Longer items that took less time say nothing of a time per token: the mean.
    const falling = fitItemTime([
      { tokens: 10, ms: 100 },
      { tokens: 20, ms: 50 },
    ])!;
    expect(falling.perToken).toBe(0);
    expect(falling.base).toBeCloseTo(75, 9);
    expect(fitItemTime([])).toBeNull();
  });

  it("shares the run's workers between its models, and says where a request's time came from", () => {
    const pace = runPace({ base: 10, perToken: 0, items: 3, minTokens: 5, maxTokens: 5 }, 'acme/judge', 4, 2);
    expect(pace.concurrency).toBe(2);
    expect(pace.itemTime!(5).source).toBe("fitted on the tokens of acme/judge's newest 3 answered items");
    expect(runPace(null, 'acme/judge', 4, 1)).toMatchObject({ concurrency: 4, itemTime: null });
  });

  it('follows its line only over the tokens it was fitted on: past them, the nearer end', () => {
    // 100 ms at 100 tokens to 200 ms at 300: 50 ms and half a ms a token.
    const fit = fitItemTime([
      { tokens: 100, ms: 100 },
      { tokens: 300, ms: 200 },
    ])!;
    expect(fit).toMatchObject({ minTokens: 100, maxTokens: 300 });
    expect(timeAt(fit, 200)).toBeCloseTo(150, 9);
    expect(timeAt(fit, 3_000)).toBeCloseTo(200, 9);
    expect(timeAt(fit, 10)).toBeCloseTo(100, 9);
    expect(runPace(fit, 'm', 4, 1).itemTime!(3_000).ms).toBeCloseTo(200, 9);
  });

  it('says which providers answered the items, as shares, an item answered by several counted for the first', () => {
    const mix = providerMix([{ provider: 'Swift' }, { provider: 'Bargain' }, { provider: 'Bargain, Swift' }, { provider: 'Bargain' }, { provider: null }]);
    expect(Object.fromEntries(mix)).toEqual({ Swift: 0.25, Bargain: 0.75 });
    expect(runPace(null, 'm', 4, 1, mix).mix).toBe(mix);
  });
});
