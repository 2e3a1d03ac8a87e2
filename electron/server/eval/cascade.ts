/** --cascade FIRST,SECOND with its question and target: read, checked, and the curve printed. */
import { formatCurve, pickPoint } from '../../core';
import type { CascadeCurve, CascadeTarget } from '../../../shared/schemas/cascade-curve';
import { bad } from './bad-input';

export interface CascadeOption {
  models: [string, string];
  question?: string | undefined;
  target?: CascadeTarget | undefined;
}

/** --cascade FIRST,SECOND with its question and target, checked. */
export function cascadeOption(values: {
  cascade?: string | undefined;
  'cascade-question'?: string | undefined;
  'target-accuracy'?: string | undefined;
  'max-cost-per-item'?: string | undefined;
}): CascadeOption | undefined {
  const accuracy = values['target-accuracy'];
  const ceiling = values['max-cost-per-item'];
  if (!values.cascade) {
    for (const flag of ['cascade-question', 'target-accuracy', 'max-cost-per-item'] as const)
      if (values[flag] !== undefined) bad(`--${flag} goes with --cascade FIRST,SECOND`);
    return undefined;
  }
  const models = values.cascade.split(',').map((m) => m.trim());
  if (models.length !== 2 || !models[0] || !models[1]) bad(`--cascade names two models, the first and the second, not "${values.cascade}"`);
  if (models[0] === models[1]) bad('--cascade goes from one model to another: name two different models');
  if (accuracy !== undefined && ceiling !== undefined) bad('--target-accuracy and --max-cost-per-item: give one target, not both');
  let target: CascadeTarget | undefined;
  if (accuracy !== undefined) {
    const x = Number(accuracy);
    if (accuracy.trim() === '' || !Number.isFinite(x) || x < 0 || x > 1)
      bad(`--target-accuracy must be a share between 0 and 1 (0.95 for 95%), not "${accuracy}"`);
    target = { accuracy: x };
  }
  if (ceiling !== undefined) {
    const c = Number(ceiling);
    if (ceiling.trim() === '' || !Number.isFinite(c) || c < 0) bad(`--max-cost-per-item must be USD per item, 0 or more, not "${ceiling}"`);
    target = { max_cost_per_item: c };
  }
  return { models: [models[0], models[1]], question: values['cascade-question'], target };
}

/** The curve's table, then the threshold the target picks (or that none does, and the closest). */
export function printCascade(curve: CascadeCurve, target: CascadeTarget | undefined): void {
  process.stdout.write(`\n${formatCurve(curve)}`);
  if (!target) return;
  const pick = pickPoint(curve.points, target, [curve.first, curve.second]);
  if (pick.reached) process.stdout.write(`Threshold ${pick.point.threshold}: ${pick.message}\nCondition: ${JSON.stringify(pick.point.condition)}\n`);
  else
    process.stdout.write(
      `${pick.message}${pick.closest ? `\nClosest: threshold ${pick.closest.threshold}, condition ${JSON.stringify(pick.closest.condition)}` : ''}\n`,
    );
}
