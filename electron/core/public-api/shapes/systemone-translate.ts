import type { Answer } from '../../../../shared/schemas/answer';
import type { DecisionsResponse } from '../../../../shared/schemas/decisions-response';
import { foldCriteria } from '../../providers/fold-criteria';

/**
 * The other direction of translate.ts: System One as Verdict serves it at `/api/v1/systemone` (and
 * at `/api/v1/decisions` when the body is System One's, as Perplexity and Portkey serve it). Its
 * shape is the spec's, so the request needs only what TypeSafe's contract allows beyond the spec:
 * instructions that may be left out or null, and a noul question with only one of its criteria.
 * Those are taken as the AI SDK takes them: a lone criterion is folded into the instructions
 * (`Criteria for true:` …), since the spec's criteria name both sides.
 */

type Body = Record<string, unknown>;
const isObject = (v: unknown): v is Body => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A System One body with TypeSafe's leniencies made explicit in the spec's shape; anything else is left for the spec's schema to judge. */
export function fromSystemOneBody(body: unknown): unknown {
  if (!isObject(body) || !isObject(body['questions'])) return body;
  const questions = Object.fromEntries(Object.entries(body['questions']).map(([name, q]) => [name, isObject(q) ? question(q) : q]));
  return { ...body, questions };
}

function question(q: Body): Body {
  const out: Body = { ...q };
  // TypeSafe: "instructions" may be absent or null when the criteria define the judgment.
  if (out['instructions'] === undefined || out['instructions'] === null) out['instructions'] = '';
  if (q['type'] !== 'noul') return out;
  const criteria = q['criteria'];
  if (criteria === null) delete out['criteria'];
  if (!isObject(criteria)) return out;
  const yes = criteria['true'];
  const no = criteria['false'];
  if (yes !== undefined && yes !== null && no !== undefined && no !== null) return out;
  delete out['criteria'];
  out['instructions'] = foldCriteria(out['instructions'], yes, no);
  return out;
}

/**
 * The answer TypeSafe's schema asks for: choice and score answers with `confidence`. Where a native
 * host gave none, it is the one measured here from its probabilities (1 − normalised entropy).
 */
export function toSystemOneResponse(response: DecisionsResponse, concentration: (p: readonly number[]) => number): DecisionsResponse {
  let filled = false;
  const answers = Object.fromEntries(
    Object.entries(response.answers).map(([name, a]): [string, Answer] => {
      if ((a.type !== 'choice' && a.type !== 'score') || a.confidence !== undefined || !a.probabilities) return [name, a];
      filled = true;
      return [name, { ...a, confidence: Number(concentration(Object.values(a.probabilities)).toFixed(6)) }];
    }),
  );
  return filled ? { ...response, answers } : response;
}
