import type { Answer } from '../../../shared/schemas/answer';
import type { Question } from '../../../shared/schemas/question';
import type { Rounding } from '../providers/decision-host';
import type { NativeAnswer } from '../providers/types';

/** Absolute slack for sums and means on top of the declared rounding (the AI SDK's own figure). */
const TOLERANCE = 1e-6;

const isProbability = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 1;

/**
 * Why a native host's answers break its own rules, or null when they keep them. The numbers are
 * never changed: an answer that fails is an invalid upstream response, and the request goes to
 * the next endpoint. The rules are those the AI SDK holds every decision model to (`ai`
 * 7.0.173 `validateDecisionAnswers`): one answer per question and of its type; probabilities in
 * [0, 1], one per option and level, summing to 1 within 1e-6 plus half a unit of the last declared
 * decimal per entry; the choice a highest-probability option within two such half-units; the score
 * in [0, L−1] and equal to Σ i·p(i) within its rounding; box edges in [0, 1] with top < bottom and
 * left < right. A host that declares no rounding is held to 1e-6.
 */
export function nativeAnswerProblem(
  questions: Readonly<Record<string, Question>>,
  answers: Readonly<Record<string, NativeAnswer | undefined>>,
  rounding: Rounding | null,
): string | null {
  const half = (decimals: number | undefined) => (decimals === undefined ? 0 : 0.5 * 10 ** -decimals);
  const pError = half(rounding?.probabilityDecimals);
  const sError = half(rounding?.scoreDecimals);
  const asked = new Set(Object.keys(questions));
  const extra = Object.keys(answers).find((name) => !asked.has(name));
  if (extra !== undefined) return `an answer to "${extra}", which was not asked`;
  for (const [name, question] of Object.entries(questions)) {
    const answer = answers[name];
    if (!answer) return `no answer to "${name}"`;
    if (answer.type === 'refusal') continue;
    if (answer.type !== question.type) return `the answer to "${name}" is a ${answer.type}, not a ${question.type}`;
    const problem = answerProblem(question, answer, pError, sError);
    if (problem) return `"${name}": ${problem}`;
  }
  return null;
}

function answerProblem(question: Question, answer: Answer, pError: number, sError: number): string | null {
  switch (answer.type) {
    case 'noul':
      return isProbability(answer.noul) ? null : `noul ${answer.noul} is not a probability`;
    case 'choice': {
      const options = Object.keys((question as Extract<Question, { type: 'choice' }>).criteria);
      if (!options.includes(answer.choice)) return `choice "${answer.choice}" is not an option`;
      if (answer.confidence !== undefined && !isProbability(answer.confidence)) return `confidence ${answer.confidence} is not a probability`;
      if (!answer.probabilities) return null;
      const problem = distributionProblem(answer.probabilities, options, pError);
      if (problem) return problem;
      const chosen = answer.probabilities[answer.choice]!;
      const higher = options.find((o) => answer.probabilities![o]! > chosen + TOLERANCE + 2 * pError);
      return higher === undefined
        ? null
        : `choice "${answer.choice}" (${chosen}) is not a highest-probability option ("${higher}" has ${answer.probabilities[higher]})`;
    }
    case 'score': {
      const levels = (question as Extract<Question, { type: 'score' }>).criteria.length;
      if (!Number.isFinite(answer.score) || answer.score < 0 || answer.score > levels - 1) return `score ${answer.score} is outside [0, ${levels - 1}]`;
      if (answer.confidence !== undefined && !isProbability(answer.confidence)) return `confidence ${answer.confidence} is not a probability`;
      if (!answer.probabilities) return null;
      const keys = Array.from({ length: levels }, (_, i) => String(i));
      const problem = distributionProblem(answer.probabilities, keys, pError);
      if (problem) return problem;
      const mean = keys.reduce((total, k) => total + Number(k) * answer.probabilities![k]!, 0);
      const meanError = keys.reduce((total, k) => total + Number(k) * pError, 0);
      return Math.abs(mean - answer.score) > TOLERANCE + meanError + sError
        ? `score ${answer.score} is not the probability-weighted mean of its levels (${+mean.toFixed(6)})`
        : null;
    }
    case 'box': {
      const b = answer.box;
      if (![b.top, b.bottom, b.left, b.right].every(isProbability)) return 'box edges are not all in [0, 1]';
      if (!(b.top < b.bottom) || !(b.left < b.right)) return `box edges out of order (top ${b.top}, bottom ${b.bottom}, left ${b.left}, right ${b.right})`;
      return answer.confidence !== undefined && !isProbability(answer.confidence) ? `confidence ${answer.confidence} is not a probability` : null;
    }
  }
}

function distributionProblem(probabilities: Readonly<Record<string, number>>, keys: readonly string[], pError: number): string | null {
  const given = Object.keys(probabilities);
  const missing = keys.find((k) => !(k in probabilities));
  if (missing !== undefined) return `probabilities lack "${missing}"`;
  const unknown = given.find((k) => !keys.includes(k));
  if (unknown !== undefined) return `probabilities name "${unknown}", which is not asked`;
  const bad = keys.find((k) => !isProbability(probabilities[k]));
  if (bad !== undefined) return `probability of "${bad}" (${probabilities[bad]}) is not in [0, 1]`;
  const sum = keys.reduce((total, k) => total + probabilities[k]!, 0);
  return Math.abs(sum - 1) > TOLERANCE + keys.length * pError ? `probabilities sum to ${+sum.toFixed(6)}, not 1 within the host's rounding` : null;
}
