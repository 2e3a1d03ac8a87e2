import type { CascadeCondition } from '../schemas/cascade';

/**
 * A condition in words a person reads, as forms and lists show it: "topic: confidence below 0.62",
 * "late: P(yes) from 0.4 to 0.6", combinators as "any of …", "all of …", "at least 2 of …". A leaf
 * without a question reads every question of its kinds, and says so.
 */
export function describeCondition(condition: CascadeCondition): string {
  if ('any' in condition) return `any of (${condition.any.map(describeCondition).join('; ')})`;
  if ('all' in condition) return `all of (${condition.all.map(describeCondition).join('; ')})`;
  if ('atLeast' in condition) return `at least ${condition.atLeast.count} of (${condition.atLeast.conditions.map(describeCondition).join('; ')})`;
  if ('probabilityBetween' in condition) {
    const [low, high] = condition.probabilityBetween;
    return `${condition.question ?? 'any yes/no question'}: P(yes) from ${low} to ${high}`;
  }
  return `${condition.question ?? 'any choice, score or box question'}: confidence below ${condition.confidenceBelow}`;
}

/** A cascade in words: "first → second, when …"; the first model in words when it is not known. */
export function describeCascade(first: string | null, second: string, when: CascadeCondition): string {
  return `${first ?? 'a first model'} → ${second}, when ${describeCondition(when)}`;
}
