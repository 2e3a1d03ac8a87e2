import { describe, expect, it } from 'vitest';
import { fitTokens, refinedExpectation } from './refine';

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
});
