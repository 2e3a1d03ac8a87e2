import type { QuestionType } from '../../../shared/schemas/question';
import type { DecisionHost } from '../providers/decision-host';

/** What a Decisions request asks of a host that answers it natively: enough to tell whether the host can take it. */
export interface DecisionShape {
  /** Each question type asked, with the first question of that type (for the explanation). */
  types: ReadonlyMap<QuestionType, string>;
  questions: number;
  /** The choice question with the fewest and the one with the most options (null without choice questions). */
  options: Extremes | null;
  /** Likewise for score levels. */
  levels: Extremes | null;
  images: number;
  /** Tokens of state and questions, estimated at 4 characters a token. */
  tokens: number;
  /** Tokens of the state and of the longest question alone, likewise. */
  stateTokens: number;
  longestQuestionTokens: number;
}

export interface Extremes {
  fewest: { question: string; count: number };
  most: { question: string; count: number };
}

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/**
 * Why a native host cannot take a request (its documented limits), or null when it can. The
 * endpoint's own context length, when the catalog gives one, bounds the request as the host's does.
 */
export function hostRefusal(host: DecisionHost, contextLength: number | null, shape: DecisionShape): string | null {
  const { limits } = host;
  const gaps = host.gaps ? `; ${host.gaps}` : '';
  for (const [type, question] of shape.types) {
    if (!host.questionTypes.includes(type)) return `${host.name} answers no ${type} questions here (questions.${question})${gaps}`;
  }
  if (limits.questions !== null && shape.questions > limits.questions) {
    return `${host.name} takes at most ${plural(limits.questions, 'question')} (this request has ${shape.questions})`;
  }
  if (shape.options) {
    const { fewest, most } = shape.options;
    if (fewest.count < limits.minOptions) return `${host.name} needs at least ${limits.minOptions} choices (questions.${fewest.question} has ${fewest.count})`;
    if (limits.maxOptions !== null && most.count > limits.maxOptions)
      return `${host.name} takes at most ${limits.maxOptions} choices (questions.${most.question} has ${most.count})`;
  }
  if (shape.levels) {
    const { fewest, most } = shape.levels;
    if (fewest.count < limits.minLevels)
      return `${host.name} needs at least ${limits.minLevels} score levels (questions.${fewest.question} has ${fewest.count})`;
    if (limits.maxLevels !== null && most.count > limits.maxLevels)
      return `${host.name} takes at most ${limits.maxLevels} score levels (questions.${most.question} has ${most.count})`;
  }
  if (shape.images > 0 && host.images === 'none') return `${host.name} takes no images here (state has ${plural(shape.images, 'image')})${gaps}`;
  if (limits.images !== null && shape.images > limits.images) return `${host.name} takes at most ${plural(limits.images, 'image')} (state has ${shape.images})`;
  const ceiling = minKnown(limits.contextTokens, contextLength);
  if (ceiling !== null && shape.tokens > ceiling) {
    return `${host.name} reads at most ${plural(ceiling, 'token')} of state and questions here (this request has about ${shape.tokens.toLocaleString('en-US')}, at 4 characters a token)`;
  }
  const perQuestion = limits.questionContextTokens;
  const withLongest = shape.stateTokens + shape.longestQuestionTokens;
  if (perQuestion !== null && withLongest > perQuestion) {
    return `${host.name} reads at most ${plural(perQuestion, 'token')} of state and one question (this request's state and longest question have about ${withLongest.toLocaleString('en-US')}, at 4 characters a token)`;
  }
  return null;
}

const minKnown = (a: number | null, b: number | null): number | null => (a === null ? b : b === null ? a : Math.min(a, b));
