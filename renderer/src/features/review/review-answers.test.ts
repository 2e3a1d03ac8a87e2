import { describe, expect, it } from 'vitest';
import type { Question } from '../../../../shared/schemas/question';
import { agrees, answerForKey, optionsOf, predictionLine, questionForKey, unanswered } from './review-answers';

const late: Question = { type: 'noul', instructions: 'Late?' };
const mood: Question = { type: 'choice', instructions: 'Mood?', criteria: { calm: null, angry: 'shouting' } };
const tone: Question = { type: 'score', instructions: 'Tone', criteria: ['cold', 'warm', 'kind'] };
const box: Question = { type: 'box', instructions: 'the card' };

describe('review answers', () => {
  it('gives yes/no questions Y and N, options and levels the digits from 1', () => {
    expect(optionsOf(late).map((o) => [o.value, o.key])).toEqual([
      [true, 'y'],
      [false, 'n'],
    ]);
    expect(optionsOf(mood).map((o) => [o.value, o.key, o.hint])).toEqual([
      ['calm', '1', null],
      ['angry', '2', 'shouting'],
    ]);
    expect(optionsOf(tone).map((o) => [o.value, o.key])).toEqual([
      [0, '1'],
      [1, '2'],
      [2, '3'],
    ]);
    expect(optionsOf(box)).toEqual([]);
    expect(answerForKey(late, 'Y')).toBe(true);
    expect(answerForKey(mood, '3')).toBeUndefined();
  });

  it('sends a key to the current question when it answers it, else to the next one it does', () => {
    const questions = [
      ['late', late],
      ['mood', mood],
    ] as const;
    expect(questionForKey(questions, 0, 'y')).toBe(0);
    expect(questionForKey(questions, 0, '2')).toBe(1);
    expect(questionForKey(questions, 1, 'n')).toBe(0);
    expect(questionForKey(questions, 1, 's')).toBeNull();
  });

  it('names what is left to answer, and what the model said', () => {
    expect(unanswered({ late, mood }, { late: false })).toEqual(['mood']);
    expect(unanswered({ box }, {})).toEqual(['box']);
    const prediction = { model: 'sandbox/decider', provider: null, answers: { late: { type: 'noul', noul: 0.8 }, mood: { type: 'choice', choice: 'calm' } } };
    expect(predictionLine(prediction)).toBe('late: yes · P(yes) 0.80; mood: calm');
    expect(predictionLine(null)).toBe('nothing');
    expect(agrees(true, prediction.answers.late)).toBe(true);
    expect(agrees('angry', prediction.answers.mood)).toBe(false);
    expect(agrees(undefined, prediction.answers.mood)).toBeNull();
  });
});
