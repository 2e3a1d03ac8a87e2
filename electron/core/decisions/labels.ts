import type { ChoiceQuestion, NoulQuestion, Question, ScoreQuestion } from '../../../shared/schemas/question';
import { GatewayError } from '../errors';
import { guidanceText } from '../validation';

/** Single-token, distinct labels the model answers with; each maps back to an option. */
export interface LabelSet {
  labels: string[];
  /** Option name (choice), level index as a string (score), or 'true'/'false' (noul). */
  keys: string[];
}

export const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'.split('');
export const MAX_SCORE_LEVELS = 10;

export function labelSet(name: string, question: Exclude<Question, { type: 'box' }>): LabelSet {
  switch (question.type) {
    case 'noul':
      return { labels: ['Yes', 'No'], keys: ['true', 'false'] };
    case 'choice': {
      const options = Object.keys(question.criteria);
      if (options.length > LETTERS.length) {
        throw new GatewayError('bad_request', `questions.${name}: a choice question has at most ${LETTERS.length} options, this one has ${options.length}`);
      }
      return { labels: LETTERS.slice(0, options.length), keys: options };
    }
    case 'score': {
      const levels = question.criteria.length;
      if (levels > MAX_SCORE_LEVELS) {
        throw new GatewayError('bad_request', `questions.${name}: a score question has at most ${MAX_SCORE_LEVELS} levels, this one has ${levels}`);
      }
      return { labels: question.criteria.map((_, i) => String(i)), keys: question.criteria.map((_, i) => String(i)) };
    }
  }
}


/** The question part of a prompt: it comes after the shared state, so every call shares one prefix. */
export function questionText(question: NoulQuestion | ChoiceQuestion | ScoreQuestion, labels: LabelSet): string {
  const lines = [`Question: ${guidanceText(question.instructions)}`];
  if (question.type === 'noul') {
    if (question.criteria) lines.push(`It is true when: ${guidanceText(question.criteria.true)}`, `It is false when: ${guidanceText(question.criteria.false)}`);
    lines.push('Answer Yes or No.');
  } else if (question.type === 'choice') {
    lines.push('Options:');
    labels.keys.forEach((key, i) => {
      const guidance = question.criteria[key];
      lines.push(`${labels.labels[i]}) ${key}${guidance === null || guidance === undefined ? '' : `: ${guidanceText(guidance)}`}`);
    });
    lines.push('Answer with the letter of one option only.');
  } else {
    lines.push('Levels, lowest first:');
    question.criteria.forEach((c, i) => lines.push(`${i}) ${guidanceText(c)}`));
    lines.push('Answer with the number of one level only.');
  }
  return lines.join('\n');
}

export const SYSTEM_PROMPT =
  'You judge content. The user gives the content first, then one question. Reply with exactly one of the labels the question offers and nothing else.';
