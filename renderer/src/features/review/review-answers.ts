/**
 * A reviewer's answers as the review keeps them (yes/no true or false, an option's name, a level's
 * index), each question's options with the key that gives each, and what the model said, in words.
 * Box questions have no options: the reviewer draws the box on the workbench the review embeds.
 */
import type { Edges } from '../../../../shared/geometry/iou';
import type { Guidance } from '../../../../shared/schemas/guidance';
import type { Question } from '../../../../shared/schemas/question';
import type { ReviewPrediction } from '../../../../shared/schemas/review';
import { scoredLevelIndex } from '../../lib/answer-detail';
import { answerText, expectedText } from '../../lib/answer-text';

export type AnswerValue = boolean | string | number | Edges;
export type Answers = Readonly<Record<string, AnswerValue>>;

export interface AnswerOption {
  value: AnswerValue;
  label: string;
  /** what the question set says the option means, when it says so in words */
  hint: string | null;
  /** the single key that gives it: Y or N for yes/no, 1–9 for the first nine options or levels, else none */
  key: string | null;
}

/** Guidance in words: its text, or its JSON when it is structured. */
export function guidanceText(guidance: Guidance | null | undefined): string | null {
  if (guidance === null || guidance === undefined) return null;
  return typeof guidance === 'string' ? guidance : JSON.stringify(guidance);
}

const digit = (index: number) => (index < 9 ? String(index + 1) : null);

export function optionsOf(question: Question): AnswerOption[] {
  switch (question.type) {
    case 'noul':
      return [
        { value: true, label: 'Yes', hint: guidanceText(question.criteria?.true), key: 'y' },
        { value: false, label: 'No', hint: guidanceText(question.criteria?.false), key: 'n' },
      ];
    case 'choice':
      return Object.entries(question.criteria).map(([name, guidance], i) => ({ value: name, label: name, hint: guidanceText(guidance), key: digit(i) }));
    case 'score':
      return question.criteria.map((guidance, i) => ({ value: i, label: `Level ${i}`, hint: guidanceText(guidance), key: digit(i) }));
    case 'box':
      return [];
  }
}

/** The answer a key gives to a question, if that key gives one to it. */
export function answerForKey(question: Question, key: string): AnswerValue | undefined {
  return optionsOf(question).find((o) => o.key === key.toLowerCase())?.value;
}

/** The question a key answers: the current one if the key gives it an answer, else the next one after it that the key answers. */
export function questionForKey(questions: readonly (readonly [string, Question])[], current: number, key: string): number | null {
  for (let step = 0; step < questions.length; step += 1) {
    const index = (current + step) % questions.length;
    if (answerForKey(questions[index]![1], key) !== undefined) return index;
  }
  return null;
}

/** The questions not answered yet, by name. */
export function unanswered(questions: Readonly<Record<string, Question>>, answers: Answers): string[] {
  return Object.keys(questions).filter((name) => !Object.hasOwn(answers, name));
}

/** A reviewer's answer in words: yes/no, the option, "level 2". */
export const valueText = (value: unknown): string => expectedText(value);

/** What the model said to each question, in words: "late: yes · P(yes) 0.83; mood: calm". */
export function predictionLine(prediction: ReviewPrediction | null): string {
  if (!prediction) return 'nothing';
  const parts = Object.entries(prediction.answers).map(([name, answer]) => `${name}: ${answerText(answer)}`);
  return parts.length > 0 ? parts.join('; ') : 'nothing';
}

/** Whether the reviewer and the model agree on a question (the model's yes at P(yes) ≥ 0.5, its choice, its scored level). */
export function agrees(value: AnswerValue | undefined, answer: unknown): boolean | null {
  const a = answer as { type?: string; noul?: number; choice?: string } | undefined;
  if (value === undefined || !a) return null;
  if (a.type === 'noul' && typeof value === 'boolean') return (a.noul ?? 0) >= 0.5 === value;
  if (a.type === 'choice' && typeof value === 'string') return a.choice === value;
  if (a.type === 'score' && typeof value === 'number') return scoredLevelIndex(a) === value;
  return null;
}
