import type { ChoiceQuestion, NoulQuestion, Question, ScoreQuestion } from '../../../shared/schemas/question';
import { guidanceText } from '../validation';

/** Distinct labels the model answers with; each maps back to an option. */
export interface LabelSet {
  labels: string[];
  /** Option name (choice), level index as a string (score), or 'true'/'false' (noul). */
  keys: string[];
  /**
   * Every label is one token (Yes/No, A–Z, 0–9), so label log-probabilities measure the answer.
   * Longer lists (more than 26 options, more than 10 levels) get longer labels and stated probabilities.
   */
  singleToken: boolean;
}

export const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'.split('');
export const MAX_SCORE_LEVELS = 10;

/** A, B, … Z, AA, AB, … as spreadsheet columns are named. */
export function letterLabel(index: number): string {
  let n = index + 1;
  let label = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    label = LETTERS[r]! + label;
    n = Math.floor((n - 1) / 26);
  }
  return label;
}

export function labelSet(_name: string, question: Exclude<Question, { type: 'box' }>): LabelSet {
  switch (question.type) {
    case 'noul':
      return { labels: ['Yes', 'No'], keys: ['true', 'false'], singleToken: true };
    case 'choice': {
      const options = Object.keys(question.criteria);
      return { labels: options.map((_, i) => letterLabel(i)), keys: options, singleToken: options.length <= LETTERS.length };
    }
    case 'score': {
      const levels = question.criteria.map((_, i) => String(i));
      return { labels: levels, keys: levels, singleToken: levels.length <= MAX_SCORE_LEVELS };
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
