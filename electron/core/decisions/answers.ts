import type { Answer } from '../../../shared/schemas/answer';
import type { ChoiceQuestion, NoulQuestion, ScoreQuestion } from '../../../shared/schemas/question';
import { argmax, expectedLevel, roundDistribution } from './extract';

export type LabelQuestion = NoulQuestion | ChoiceQuestion | ScoreQuestion;

const round = (value: number, digits = 6) => Number(value.toFixed(digits));

/**
 * How concentrated a distribution is: 1 − H(p) / ln(n), its entropy against the most it could
 * have. 1 when one option has all the mass, 0 when every option has the same. This is the
 * `confidence` of a choice or score answer measured here: a statistic of the whole distribution, not
 * the top probability restated (which the answer's `probabilities` already give), as the field's
 * hosts document theirs (TypeSafe: "confidence in the selected choice", OpenRouter: "how concentrated
 * the distribution is"). One option or level: 1.
 */
export function concentration(probabilities: readonly number[]): number {
  const n = probabilities.length;
  if (n < 2) return 1;
  const entropy = probabilities.reduce((h, p) => (p > 0 ? h - p * Math.log(p) : h), 0);
  return Math.min(1, Math.max(0, 1 - entropy / Math.log(n)));
}

/** Turns a measured distribution over the question's option keys into its typed answer. */
export function answerFrom(question: LabelQuestion, probabilities: Record<string, number>): Answer {
  switch (question.type) {
    case 'noul':
      return { type: 'noul', noul: round(probabilities['true'] ?? 0) };
    case 'choice': {
      const choice = argmax(probabilities);
      const rounded = roundDistribution(probabilities);
      return { type: 'choice', choice, confidence: round(concentration(Object.values(probabilities))), probabilities: rounded };
    }
    case 'score': {
      const rounded = roundDistribution(probabilities);
      return {
        type: 'score',
        score: round(expectedLevel(probabilities)),
        confidence: round(concentration(Object.values(probabilities))),
        probabilities: rounded,
        legend: Object.fromEntries(question.criteria.map((c, i) => [String(i), c])),
      };
    }
  }
}
