import { describe, expect, it } from 'vitest';
import { fitTokens, refinedExpectation, runExpectation } from './refine';

describe('refining the expected cost from answered items', () => {
  it("fits a request's tokens as a line in its item's length, or a flat line through the mean when lengths are alike", () => {
    // Points on 40 + 0.25 × chars: the line is found again.
    const fit = fitTokens([100, 400, 1000, 4000].map((chars) => ({ chars, tokens: 40 + chars / 4 })));
    expect(fit.fixed).toBeCloseTo(40, 9);
    expect(fit.per_char).toBeCloseTo(0.25, 12);
    expect(
      fitTokens([
        { chars: 50, tokens: 10 },
        { chars: 50, tokens: 30 },
      ]),
    ).toEqual({ fixed: 20, per_char: 0 });
    expect(fitTokens([])).toEqual({ fixed: 0, per_char: 0 });
  });

  it('scales each model by its measured tokens against the fit for the same items, so short first items do not pull the expectation down', () => {
    const fit = { fixed: 40, per_char: 0.25 };
    // Five short items (100 characters each) measured exactly as fitted: 5 × 65 tokens. The average
    // request of the estimate may be far longer; the expectation stays where it was.
    expect(refinedExpectation([{ expected_usd: 3, fit }], [{ variant: 0, n: 5, chars: 500, tokens: 325 }])).toBeCloseTo(3, 12);
    // Measured 10% above the fit: the expectation goes up by 10%.
    expect(refinedExpectation([{ expected_usd: 3, fit }], [{ variant: 0, n: 5, chars: 500, tokens: 357.5 }])).toBeCloseTo(3.3, 12);
  });

  it('a model with nothing answered yet takes the ratio of every answered request; an unknown price leaves it unknown', () => {
    const fit = { fixed: 0, per_char: 1 };
    // Model 0: 2× its fit (1,000 measured against 500). Model 1 has nothing answered: the ratio of all, also 2.
    expect(
      refinedExpectation(
        [
          { expected_usd: 1, fit },
          { expected_usd: 5, fit },
        ],
        [{ variant: 0, n: 5, chars: 500, tokens: 1000 }],
      ),
    ).toBeCloseTo(12, 12);
    // Model 1 measured at its fit: 1 × 2 + 5 × 1.
    expect(
      refinedExpectation(
        [
          { expected_usd: 1, fit },
          { expected_usd: 5, fit },
        ],
        [
          { variant: 0, n: 5, chars: 500, tokens: 1000 },
          { variant: 1, n: 2, chars: 300, tokens: 300 },
        ],
      ),
    ).toBeCloseTo(7, 12);
    expect(refinedExpectation([{ expected_usd: null, fit }], [{ variant: 0, n: 5, chars: 500, tokens: 1000 }])).toBeNull();
    expect(refinedExpectation([{ expected_usd: 1, fit }], [])).toBeNull();
  });

  describe('the expected cost now, as a run answers', () => {
    const fit = { fixed: 0, per_char: 1 };
    const estimate = {
      expected_usd: 2,
      worst_usd: 10,
      input_tokens: 0,
      output_tokens: 0,
      variants: [
        { expected_usd: 1, fit },
        { expected_usd: 1, fit },
      ],
    };

    it("is what is spent plus each model's remaining items at what its answered items cost each, whatever the estimate said", () => {
      // 100 items, two models. Model 0: 10 answered for $0.30 ($0.03 each), 90 to go; model 1: 20 answered for $0.10, 80 to go.
      // Spent $0.45 (failed attempts' $0.05 besides): 0.45 + 90 × 0.03 + 80 × 0.005 = 3.55.
      const answered = [
        { variant: 0, n: 10, chars: 100, tokens: 100, cost: 0.3, unknown: 0 },
        { variant: 1, n: 20, chars: 200, tokens: 200, cost: 0.1, unknown: 0 },
      ];
      expect(runExpectation(answered, { items: 100, variants: 2, spent: 0.45 }, estimate).expected_usd).toBeCloseTo(3.55, 12);
    });

    it('is never below what is spent, even when the estimate was far too low', () => {
      // The case the estimate missed: $0.0349 spent after 40 of 50 items though the whole run was expected at $0.0261.
      const low = { ...estimate, expected_usd: 0.0261, variants: [{ expected_usd: 0.0261, fit }] };
      const answered = [{ variant: 0, n: 40, chars: 400, tokens: 400, cost: 0.0349, unknown: 0 }];
      const now = runExpectation(answered, { items: 50, variants: 1, spent: 0.0349 }, low).expected_usd!;
      // 0.0349 + 10 × 0.0349 / 40
      expect(now).toBeCloseTo(0.0349 + (10 * 0.0349) / 40, 12);
      expect(now).toBeGreaterThanOrEqual(0.0349);
    });

    it('a model with too few answered takes its estimate, scaled by its tokens against the fit; unknown costs leave it unknown', () => {
      // Model 0 measured ($0.02 each over 10); model 1 has 2 answered at twice its fitted tokens: its estimate ($1 over 100 items) doubled.
      const answered = [
        { variant: 0, n: 10, chars: 100, tokens: 100, cost: 0.2, unknown: 0 },
        { variant: 1, n: 2, chars: 20, tokens: 40, cost: 0.04, unknown: 0 },
      ];
      // 0.24 spent + 90 × 0.02 + 98 × (2 × 1 / 100)
      expect(runExpectation(answered, { items: 100, variants: 2, spent: 0.24 }, estimate).expected_usd).toBeCloseTo(0.24 + 1.8 + 1.96, 12);
      const unknown = [{ variant: 0, n: 10, chars: 100, tokens: 100, cost: null, unknown: 10 }];
      expect(runExpectation(unknown, { items: 100, variants: 1, spent: 0 }, null).expected_usd).toBeNull();
      expect(
        runExpectation(
          answered.slice(0, 1).map((a) => ({ ...a, n: 4 })),
          { items: 100, variants: 2, spent: 0.2 },
          estimate,
        ).expected_usd,
      ).toBeNull();
    });
  });
});
