import { describe, expect, it } from 'vitest';
import type { Answer } from '../schemas/answer';
import { CascadeConditionSchema, CascadeSchema, type CascadeCondition } from '../schemas/cascade';
import type { Question } from '../schemas/question';
import { conditionProblems, evaluateCondition } from './conditions';

const questions: Record<string, Question> = {
  late: { type: 'noul', instructions: 'Late?' },
  mood: { type: 'choice', instructions: 'Mood?', criteria: { happy: null, angry: null } },
  stars: { type: 'score', instructions: 'Stars?', criteria: ['0', '1', '2'] },
};
const answers: Record<string, Answer> = {
  late: { type: 'noul', noul: 0.55 },
  mood: { type: 'choice', choice: 'happy', confidence: 0.3 },
  stars: { type: 'score', score: 2, confidence: 0.9 },
};
const verdict = (c: CascadeCondition, a: Record<string, Answer> = answers) => evaluateCondition(c, questions, a);

describe('cascade conditions', () => {
  it('confidenceBelow holds strictly below; probabilityBetween holds inside its bounds, both inclusive', () => {
    expect(verdict({ question: 'mood', confidenceBelow: 0.5 })).toEqual({ holds: true, triggeredBy: ['mood'] });
    expect(verdict({ question: 'mood', confidenceBelow: 0.3 })).toEqual({ holds: false, triggeredBy: [] });
    expect(verdict({ question: 'late', probabilityBetween: [0.4, 0.55] })).toEqual({ holds: true, triggeredBy: ['late'] });
    expect(verdict({ question: 'late', probabilityBetween: [0.55, 0.6] }).holds).toBe(true);
    expect(verdict({ question: 'late', probabilityBetween: [0.56, 1] }).holds).toBe(false);
  });

  it('without a question, a leaf checks every question of its kinds; with none of them it never holds', () => {
    expect(verdict({ confidenceBelow: 0.95 })).toEqual({ holds: true, triggeredBy: ['mood', 'stars'] });
    expect(evaluateCondition({ probabilityBetween: [0, 1] }, { mood: questions.mood! }, { mood: answers.mood! }).holds).toBe(false);
  });

  it('an answer missing, or with no confidence, cannot be judged sure: the condition holds for it', () => {
    const { mood: _mood, ...rest } = answers;
    expect(verdict({ question: 'mood', confidenceBelow: 0.1 }, rest)).toEqual({ holds: true, triggeredBy: ['mood'] });
    expect(verdict({ question: 'stars', confidenceBelow: 0.1 }, { ...answers, stars: { type: 'score', score: 1 } }).holds).toBe(true);
  });

  it('any, all and atLeast combine, and name only the questions of the conditions that held', () => {
    const low = { question: 'mood', confidenceBelow: 0.5 };
    const high = { question: 'stars', confidenceBelow: 0.5 };
    const unsure = { question: 'late', probabilityBetween: [0.4, 0.6] as [number, number] };
    expect(verdict({ any: [low, high] })).toEqual({ holds: true, triggeredBy: ['mood'] });
    expect(verdict({ all: [low, high] })).toEqual({ holds: false, triggeredBy: [] });
    expect(verdict({ all: [low, unsure] })).toEqual({ holds: true, triggeredBy: ['mood', 'late'] });
    expect(verdict({ atLeast: { count: 2, conditions: [low, high, unsure] } })).toEqual({ holds: true, triggeredBy: ['mood', 'late'] });
    expect(verdict({ atLeast: { count: 3, conditions: [low, high, unsure] } }).holds).toBe(false);
  });

  it('bounds and limits are refused, each naming what is wrong', () => {
    const message = (value: unknown) =>
      CascadeConditionSchema.safeParse(value)
        .error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`)
        .join('; ');
    expect(message({ confidenceBelow: 1.5 })).toContain('confidenceBelow: must be at most 1');
    expect(message({ probabilityBetween: [0.8, 0.2] })).toContain('the bounds must be ordered');
    expect(message({ any: [] })).toContain('any: at least 1 condition');
    expect(message({ any: Array.from({ length: 21 }, () => ({ confidenceBelow: 0.5 })) })).toContain('at most 20 conditions');
    expect(message({ atLeast: { count: 3, conditions: [{ confidenceBelow: 0.5 }] } })).toContain('count must not exceed');
    expect(message({ question: '', confidenceBelow: 0.5 })).toContain('a question id of at least 1 character');
    let deep: CascadeCondition = { confidenceBelow: 0.5 };
    for (let i = 0; i < 5; i += 1) deep = { any: [deep] };
    expect(message(deep)).toContain('conditions nest at most 5 deep');
    expect(CascadeSchema.safeParse({ model: 'a/b', when: { any: [{ confidenceBelow: 0.5 }] } }).success).toBe(true);
  });

  it('a named question must exist and be of a type the condition reads', () => {
    expect(conditionProblems({ any: [{ question: 'nope', confidenceBelow: 0.5 }] }, questions, 'when')).toEqual([
      'when.any[0].question: the request has no question "nope"',
    ]);
    expect(conditionProblems({ question: 'mood', probabilityBetween: [0, 0.5] }, questions, 'when')[0]).toContain(
      'is a choice question; probabilityBetween reads P(true)',
    );
    expect(conditionProblems({ question: 'late', confidenceBelow: 0.5 }, questions, 'when')[0]).toContain('(use probabilityBetween)');
    expect(conditionProblems({ all: [{ question: 'late', probabilityBetween: [0, 1] }, { confidenceBelow: 0.2 }] }, questions, 'when')).toEqual([]);
  });
});
