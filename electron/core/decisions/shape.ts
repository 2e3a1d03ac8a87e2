import type { DecisionsRequest } from '../../../shared/schemas/decisions-request';
import type { QuestionType } from '../../../shared/schemas/question';
import type { DecisionShape, Extremes } from '../routing/host-fit';
import type { Prepared } from './prepare';
import { estimateTokensOfLength } from './state';

/** What routing needs to know of a request to tell whether a native host can take it. */
export function decisionShape(request: DecisionsRequest, prepared: Prepared): DecisionShape {
  const types = new Map<QuestionType, string>();
  let options: Extremes | null = null;
  let levels: Extremes | null = null;
  const widen = (current: Extremes | null, question: string, count: number): Extremes => ({
    fewest: current && current.fewest.count <= count ? current.fewest : { question, count },
    most: current && current.most.count >= count ? current.most : { question, count },
  });
  for (const [name, question] of prepared.labelled) {
    if (!types.has(question.type)) types.set(question.type, name);
    if (question.type === 'choice') options = widen(options, name, Object.keys(question.criteria).length);
    if (question.type === 'score') levels = widen(levels, name, question.criteria.length);
  }
  const stateChars = prepared.parts.reduce((n, p) => n + (p.type === 'text' ? p.text.length : 0), 0);
  const questionChars = prepared.labelled.map(([, q]) => JSON.stringify(q).length);
  return {
    types,
    questions: prepared.labelled.length,
    options,
    levels,
    images: prepared.images,
    tokens: estimateTokensOfLength(stateChars + JSON.stringify(request.questions).length),
    stateTokens: estimateTokensOfLength(stateChars),
    longestQuestionTokens: estimateTokensOfLength(Math.max(0, ...questionChars)),
  };
}
