import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { argmax, expectedLevel, foldToken, labelDistribution, roundDistribution } from './extract';
import { labelSet } from './labels';
import { statedProbabilities } from './engine';
import { answerFrom } from './answers';

const YES_NO = labelSet('q', { type: 'noul', instructions: 'x' });
const ABC = labelSet('q', { type: 'choice', instructions: 'x', criteria: { red: null, green: 'grass', blue: 'sky' } });
const at = (top: [string, number][]) => [{ token: top[0]![0], logprob: Math.log(top[0]![1]), top: top.map(([token, p]) => ({ token, logprob: Math.log(p) })) }];

describe('label distributions from token log-probabilities', () => {
  it('folds leading spaces, case and trailing punctuation into one label', () => {
    expect(['Yes', ' yes', 'YES', 'Yes.', ' A)', 'a:'].map(foldToken)).toEqual(['yes', 'yes', 'yes', 'yes', 'a', 'a']);
    const d = labelDistribution(
      at([
        ['Yes', 0.5],
        [' yes', 0.2],
        ['No', 0.2],
        ['The', 0.1],
      ]),
      YES_NO,
    )!;
    expect(d.coverage).toBeCloseTo(0.9, 10);
    expect(d.probabilities['true']).toBeCloseTo(0.7 / 0.9, 10);
    expect(d.probabilities['false']).toBeCloseTo(0.2 / 0.9, 10);
  });

  it('maps letter labels back to option names in the caller order', () => {
    const d = labelDistribution(
      at([
        ['C', 0.6],
        ['A', 0.3],
        ['B', 0.1],
      ]),
      ABC,
    )!;
    expect(Object.keys(d.probabilities)).toEqual(['red', 'green', 'blue']);
    expect(d.probabilities).toEqual({ red: expect.closeTo(0.3, 10), green: expect.closeTo(0.1, 10), blue: expect.closeTo(0.6, 10) });
  });

  it('reports low coverage when most mass is on other tokens', () => {
    const d = labelDistribution(
      at([
        ['The', 0.7],
        ['Yes', 0.2],
        ['No', 0.1],
      ]),
      YES_NO,
    )!;
    expect(d.coverage).toBeCloseTo(0.3, 10);
  });

  it('returns null when the provider gave no alternatives', () => {
    expect(labelDistribution(null, YES_NO)).toBeNull();
    expect(labelDistribution([], YES_NO)).toBeNull();
  });

  it('does not count a duplicated alternative twice', () => {
    const tokens = [
      {
        token: 'Yes',
        logprob: Math.log(0.5),
        top: [
          { token: 'Yes', logprob: Math.log(0.5) },
          { token: 'Yes', logprob: Math.log(0.5) },
          { token: 'No', logprob: Math.log(0.5) },
        ],
      },
    ];
    expect(labelDistribution(tokens, YES_NO)!.probabilities['true']).toBeCloseTo(0.5, 10);
  });
});

describe('rounding', () => {
  const distribution = fc
    .array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 12 })
    .filter((xs) => xs.reduce((a, b) => a + b, 0) > 0)
    .map((xs) => {
      const total = xs.reduce((a, b) => a + b, 0);
      return Object.fromEntries(xs.map((x, i) => [`k${i}`, x / total]));
    });

  it('keeps the sum at 1 and the argmax in place', () => {
    fc.assert(
      fc.property(distribution, fc.integer({ min: 1, max: 6 }), (p, digits) => {
        const rounded = roundDistribution(p, digits);
        const sum = Object.values(rounded).reduce((a, b) => a + b, 0);
        expect(Math.abs(sum - 1)).toBeLessThan(10 ** -digits / 2 + 1e-9);
        expect(argmax(rounded)).toBe(argmax(p));
        for (const [k, v] of Object.entries(rounded)) expect(Math.abs(v - p[k]!)).toBeLessThanOrEqual(2 * 10 ** -digits + 1e-12);
      }),
      { numRuns: 500 },
    );
  });

  it('near-equal probabilities keep their order after rounding (a case the property once found)', () => {
    // k2 exceeds k1 by one unit in the last place; at 5 digits all three floor to 33333 and one unit is left.
    // It must go to k2, the largest: the remainders of k1 and k2 differ only by rounding error.
    const p = { k0: 0.3333332535197107, k1: 0.3333333732401446, k2: 0.33333337324014467 };
    expect(argmax(p)).toBe('k2');
    expect(roundDistribution(p, 5)).toEqual({ k0: 0.33333, k1: 0.33333, k2: 0.33334 });
  });

  it('breaks ties by the caller order', () => {
    expect(argmax({ b: 0.4, a: 0.4, c: 0.2 })).toBe('b');
  });
});

describe('answers', () => {
  it('score is the expected 0-based level, with probabilities and the legend echoed', () => {
    const q = { type: 'score' as const, instructions: 'x', criteria: ['bad', { detail: 'ok' }, 'great'] };
    const answer = answerFrom(q, { '0': 0.2, '1': 0.3, '2': 0.5 });
    // confidence 1 − H/ln 3, H = −(0.2 ln 0.2 + 0.3 ln 0.3 + 0.5 ln 0.5) = 1.029653: 1 − 1.029653 / 1.098612 = 0.062769.
    expect(answer).toEqual({
      type: 'score',
      score: 1.3,
      confidence: 0.062769,
      probabilities: { '0': 0.2, '1': 0.3, '2': 0.5 },
      legend: { '0': 'bad', '1': { detail: 'ok' }, '2': 'great' },
    });
    expect(expectedLevel({ '0': 1 })).toBe(0);
  });

  it('choice is the argmax; its confidence how concentrated the distribution is, not the top probability', () => {
    const q = { type: 'choice' as const, instructions: 'x', criteria: { red: null, blue: null } };
    // 1 − H/ln 2, H = −(0.25 ln 0.25 + 0.75 ln 0.75) = 0.562335: 1 − 0.562335 / 0.693147 = 0.188722.
    expect(answerFrom(q, { red: 0.25, blue: 0.75 })).toEqual({
      type: 'choice',
      choice: 'blue',
      confidence: 0.188722,
      probabilities: { red: 0.25, blue: 0.75 },
    });
    // All mass on one option: 1; spread evenly: 0; one option: 1.
    expect(answerFrom(q, { red: 0, blue: 1 })).toMatchObject({ confidence: 1 });
    expect(answerFrom(q, { red: 0.5, blue: 0.5 })).toMatchObject({ confidence: 0 });
    expect(answerFrom({ type: 'choice', instructions: 'x', criteria: { only: null } }, { only: 1 })).toMatchObject({ confidence: 1 });
  });

  it('noul is P(true)', () => {
    expect(answerFrom({ type: 'noul', instructions: 'x' }, { true: 0.8125, false: 0.1875 })).toEqual({ type: 'noul', noul: 0.8125 });
  });
});

describe('stated probabilities', () => {
  it('reads and normalises the JSON the model stated', () => {
    expect(statedProbabilities('{"probabilities": {"Yes": 3, "No": 1}}', YES_NO)).toEqual({ true: 0.75, false: 0.25 });
    expect(statedProbabilities('Sure! {"probabilities":{"A":0.2,"B":0.3,"C":0.5}}', ABC)).toEqual({ red: 0.2, green: 0.3, blue: 0.5 });
  });
  it('refuses anything incomplete rather than guessing', () => {
    expect(statedProbabilities('{"probabilities": {"Yes": 1}}', YES_NO)).toBeNull();
    expect(statedProbabilities('{"probabilities": {"Yes": -1, "No": 2}}', YES_NO)).toBeNull();
    expect(statedProbabilities('Yes', YES_NO)).toBeNull();
    expect(statedProbabilities('{"probabilities": {"Yes": 0, "No": 0}}', YES_NO)).toBeNull();
  });
});
