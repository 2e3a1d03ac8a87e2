import type { Answer } from '../../../../shared/schemas/answer';
import type { Question } from '../../../../shared/schemas/question';
import { answerFrom } from '../../decisions/answers';
import { scaleNoul, scaleProbabilities } from './calibration';

/** The answer with a saved temperature applied (null when the answer carries no probabilities to scale). */
export function calibratedAnswer(question: Question, answer: Answer, temperature: number): Answer | null {
  if (question.type === 'noul' && answer.type === 'noul') {
    const p = scaleNoul(answer.noul, temperature);
    return answerFrom(question, { true: p, false: 1 - p });
  }
  if ((question.type === 'choice' && answer.type === 'choice') || (question.type === 'score' && answer.type === 'score')) {
    if (!answer.probabilities) return null;
    return answerFrom(question, scaleProbabilities(answer.probabilities, temperature));
  }
  return null;
}

/**
 * A response's answers with the run's temperatures applied, and each changed answer's method saying
 * so; the same objects when no temperature applies to the variant.
 */
export function calibratedAnswers(
  questions: Record<string, Question>,
  response: { answers: Record<string, Answer>; methods: Record<string, string> },
  temperatures: ReadonlyMap<string, number> | undefined,
): { answers: Record<string, Answer>; methods: Record<string, string> } {
  if (!temperatures || temperatures.size === 0) return response;
  const answers = { ...response.answers };
  const methods = { ...response.methods };
  for (const [name, t] of temperatures) {
    const q = questions[name];
    const a = answers[name];
    if (!q || !a) continue;
    const adjusted = calibratedAnswer(q, a, t);
    if (!adjusted) continue;
    answers[name] = adjusted;
    methods[name] = `${response.methods[name] ?? 'unknown'}+temperature(T=${Number(t.toPrecision(4))})`;
  }
  return { answers, methods };
}
