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
