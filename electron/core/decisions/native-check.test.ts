import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Question } from '../../../shared/schemas/question';
import type { NativeAnswer } from '../providers/types';
import { nativeAnswerProblem } from './native-check';

const FIXTURES = join(import.meta.dirname, '..', '..', 'test-support', 'fixtures', 'decisions');
const reply = (file: string) => JSON.parse(readFileSync(join(FIXTURES, file), 'utf8')) as { answers: Record<string, NativeAnswer> };
const TWO = { probabilityDecimals: 2, scoreDecimals: 2 };

/**
 * The rules a native host's answers are held to, on the hosts' own published replies: each passes
 * within the rounding its host declares, and the same numbers fail where no rounding is declared,
 * as the AI SDK's validator decides them.
 */
describe("a native host's answers against its own rounding", () => {
  const openRouter = reply('openrouter/decisions-response.json');
  const openRouterQuestions = (JSON.parse(readFileSync(join(FIXTURES, 'openrouter/decisions-request.json'), 'utf8')) as { questions: Record<string, Question> })
    .questions;

  it("OpenRouter's reference reply (score 1.99 beside a mean of 2.00) passes at two decimals and fails at none", () => {
    expect(nativeAnswerProblem(openRouterQuestions, openRouter.answers, TWO)).toBeNull();
    expect(nativeAnswerProblem(openRouterQuestions, openRouter.answers, null)).toMatch(
      /"urgency": score 1.99 is not the probability-weighted mean of its levels \(2\)/,
    );
  });

  it("Effect's regression reply (a choice summing to 0.99) passes at two decimals and fails at none", () => {
    const questions: Record<string, Question> = {
      neutral3: { type: 'choice', instructions: 'Sentiment?', criteria: { negative: null, neutral: null, positive: null } },
    };
    const effect = reply('openrouter/effect-neutral3-sum-0.99-response.json');
    expect(nativeAnswerProblem(questions, effect.answers, TWO)).toBeNull();
    expect(nativeAnswerProblem(questions, effect.answers, null)).toBe('"neutral3": probabilities sum to 0.99, not 1 within the host\'s rounding');
  });

  it("TypeSafe's fixture reply passes at TypeSafe's two decimals", () => {
    const request = JSON.parse(readFileSync(join(FIXTURES, 'typesafe/evaluation-request.json'), 'utf8')) as { questions: Record<string, Question> };
    expect(nativeAnswerProblem(request.questions, reply('typesafe/decision-response.json').answers, TWO)).toBeNull();
  });

  it('names what is wrong: a choice not among the options, a missing or extra answer, a wrong type, a zero-area box', () => {
    const q: Record<string, Question> = {
      c: { type: 'choice', instructions: 'x', criteria: { a: null, b: null } },
      b: { type: 'box', instructions: 'the thing' },
    };
    const box = { type: 'box' as const, box: { top: 0.1, bottom: 0.4, left: 0.2, right: 0.6 } };
    expect(nativeAnswerProblem(q, { c: { type: 'choice', choice: 'z' }, b: box }, TWO)).toBe('"c": choice "z" is not an option');
    expect(nativeAnswerProblem(q, { c: { type: 'choice', choice: 'a' } }, TWO)).toBe('no answer to "b"');
    expect(nativeAnswerProblem(q, { c: { type: 'choice', choice: 'a' }, b: box, d: box }, TWO)).toBe('an answer to "d", which was not asked');
    expect(nativeAnswerProblem(q, { c: { type: 'noul', noul: 0.5 }, b: box }, TWO)).toBe('the answer to "c" is a noul, not a choice');
    expect(
      nativeAnswerProblem(q, { c: { type: 'choice', choice: 'a' }, b: { type: 'box', box: { top: 0.3, bottom: 0.3, left: 0.2, right: 0.6 } } }, TWO),
    ).toMatch(/^"b": box edges out of order/);
    expect(nativeAnswerProblem(q, { c: { type: 'refusal' }, b: box }, TWO)).toBeNull();
  });

  it('any distribution rounded to the declared decimals passes; one moved by more than the rounding allows fails', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0.01, max: 1, noNaN: true }), { minLength: 2, maxLength: 12 }),
        fc.integer({ min: 1, max: 6 }),
        (weights, decimals) => {
          const total = weights.reduce((a, b) => a + b, 0);
          const exact = weights.map((w) => w / total);
          const rounded = exact.map((p) => Number(p.toFixed(decimals)));
          const keys = exact.map((_, i) => String(i));
          const best = exact.indexOf(Math.max(...exact));
          const score: Question = { type: 'score', instructions: 'x', criteria: keys };
          const choice: Question = { type: 'choice', instructions: 'x', criteria: Object.fromEntries(keys.map((k) => [`o${k}`, null])) };
          const mean = Number(exact.reduce((s, p, i) => s + i * p, 0).toFixed(decimals));
          const answers: Record<string, NativeAnswer> = {
            s: { type: 'score', score: mean, probabilities: Object.fromEntries(rounded.map((p, i) => [String(i), p])) },
            c: { type: 'choice', choice: `o${best}`, probabilities: Object.fromEntries(rounded.map((p, i) => [`o${i}`, p])) },
          };
          const rounding = { probabilityDecimals: decimals, scoreDecimals: decimals };
          expect(nativeAnswerProblem({ s: score, c: choice }, answers, rounding)).toBeNull();
          const off = {
            ...answers,
            s: { ...(answers['s'] as object), score: mean + 0.6 * keys.length * keys.length * 10 ** -decimals + 1e-3 } as NativeAnswer,
          };
          expect(nativeAnswerProblem({ s: score, c: choice }, off, rounding)).not.toBeNull();
        },
      ),
    );
  });
});
