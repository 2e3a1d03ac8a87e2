import type { Answer } from '../schemas/answer';
import type { CascadeCondition } from '../schemas/cascade';
import type { Question } from '../schemas/question';

/**
 * What a cascade condition reads, and whether it holds for one stage's answers. Pure: the API's
 * cascades and the evaluations' offline curves both use it, so a threshold chosen on labelled data
 * means what it will mean in the API.
 *
 * - `confidenceBelow: p` reads the answer's `confidence` (docs/API.md: how concentrated its
 *   distribution is, 1 − H/ln n) of choice, score and box questions; it holds when that is below p.
 * - `probabilityBetween: [lo, hi]` reads a yes/no (noul) answer's P(true); it holds when lo ≤ P ≤ hi.
 * - An answer missing, or without the figure a condition reads, cannot be judged sure: the condition
 *   holds for it (its question is escalated), as a first stage that fails goes to the next model.
 * - Without `question`, a leaf checks every question of its kinds and holds when one of them does; a
 *   request with no question of those kinds never matches.
 */
export type QuestionKinds = ReadonlySet<Question['type']>;

const READS_CONFIDENCE: QuestionKinds = new Set(['choice', 'score', 'box']);
const READS_PROBABILITY: QuestionKinds = new Set(['noul']);

/** A condition's verdict on one stage's answers: whether it holds, and the questions that made it. */
export interface ConditionVerdict {
  holds: boolean;
  triggeredBy: string[];
}

/** The figure a leaf reads from an answer, or null when it has none. */
export function figureOf(condition: CascadeCondition, answer: Answer | undefined): number | null {
  if (!answer) return null;
  if ('probabilityBetween' in condition) return answer.type === 'noul' ? answer.noul : null;
  return answer.type === 'noul' ? null : (answer.confidence ?? null);
}

export function evaluateCondition(
  condition: CascadeCondition,
  questions: Readonly<Record<string, Question>>,
  answers: Readonly<Record<string, Answer>>,
): ConditionVerdict {
  if ('any' in condition || 'all' in condition || 'atLeast' in condition) {
    const children = 'any' in condition ? condition.any : 'all' in condition ? condition.all : condition.atLeast.conditions;
    const verdicts = children.map((c) => evaluateCondition(c, questions, answers));
    const held = verdicts.filter((v) => v.holds);
    const need = 'any' in condition ? 1 : 'all' in condition ? children.length : condition.atLeast.count;
    const holds = held.length >= need;
    return { holds, triggeredBy: holds ? [...new Set(held.flatMap((v) => v.triggeredBy))] : [] };
  }
  const kinds = 'probabilityBetween' in condition ? READS_PROBABILITY : READS_CONFIDENCE;
  const ids = condition.question !== undefined ? [condition.question] : Object.keys(questions).filter((id) => kinds.has(questions[id]!.type));
  const triggeredBy = ids.filter((id) => {
    const figure = figureOf(condition, answers[id]);
    if (figure === null) return true;
    if ('probabilityBetween' in condition) return condition.probabilityBetween[0] <= figure && figure <= condition.probabilityBetween[1];
    return figure < condition.confidenceBelow;
  });
  return { holds: triggeredBy.length > 0, triggeredBy };
}

/**
 * Where a condition does not fit the request's questions: a named question that does not exist, or
 * whose type the condition cannot read. Each problem names its place under `path`.
 */
export function conditionProblems(condition: CascadeCondition, questions: Readonly<Record<string, Question>>, path: string): string[] {
  if ('any' in condition) return condition.any.flatMap((c, i) => conditionProblems(c, questions, `${path}.any[${i}]`));
  if ('all' in condition) return condition.all.flatMap((c, i) => conditionProblems(c, questions, `${path}.all[${i}]`));
  if ('atLeast' in condition) return condition.atLeast.conditions.flatMap((c, i) => conditionProblems(c, questions, `${path}.atLeast.conditions[${i}]`));
  if (condition.question === undefined) return [];
  const question = questions[condition.question];
  if (!question) return [`${path}.question: the request has no question "${condition.question}"`];
  if ('probabilityBetween' in condition && !READS_PROBABILITY.has(question.type))
    return [
      `${path}.probabilityBetween: question "${condition.question}" is a ${question.type} question; probabilityBetween reads P(true) of a yes/no (noul) question`,
    ];
  if ('confidenceBelow' in condition && !READS_CONFIDENCE.has(question.type))
    return [
      `${path}.confidenceBelow: question "${condition.question}" is a yes/no (noul) question; confidenceBelow reads the confidence of choice, score and box answers (use probabilityBetween)`,
    ];
  return [];
}
