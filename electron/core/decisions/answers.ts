import type { Answer } from '../../../shared/schemas/answer';
import type { ChoiceQuestion, NoulQuestion, ScoreQuestion } from '../../../shared/schemas/question';
import { argmax, expectedLevel, roundDistribution } from './extract';

export type LabelQuestion = NoulQuestion | ChoiceQuestion | ScoreQuestion;

const round = (value: number, digits = 6) => Number(value.toFixed(digits));

/** Turns a measured distribution over the question's option keys into its typed answer. */
export function answerFrom(question: LabelQuestion, probabilities: Record<string, number>): Answer {
  switch (question.type) {
    case 'noul':
      return { type: 'noul', noul: round(probabilities['true'] ?? 0) };
    case 'choice': {
      const choice = argmax(probabilities);
      const rounded = roundDistribution(probabilities);
      return { type: 'choice', choice, confidence: rounded[choice]!, probabilities: rounded };
    }
    case 'score': {
      const rounded = roundDistribution(probabilities);
      return {
        type: 'score',
        score: round(expectedLevel(probabilities)),
        probabilities: rounded,
        legend: Object.fromEntries(question.criteria.map((c, i) => [String(i), c])),
      };
    }
  }
}
