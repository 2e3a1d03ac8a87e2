import type { DecisionsRequest } from '../../../../shared/schemas/decisions-request';
import type { Expected, RunComparison } from '../../../../shared/schemas/evaluation';
import type { Question } from '../../../../shared/schemas/question';
import { GatewayError } from '../../errors';
import type { Datasets } from '../../datasets/datasets';
import type { EvalResults } from '../results/eval-results';
import { resampleCount } from './bootstrap';
import { changedItems, compareQuestion, type ComparedItem } from './compare';
import { variantKeys } from '../../../../shared/evaluations/variant-keys';
import { itemText } from '../results/item-text';

/** The changed answers listed; all are counted. */
const LISTED = 500;

/** The place in `baseline` of the model to compare a run's model with: the same name, else the same place, else the first. */
export function pairOf(name: string, place: number, baseline: readonly string[]): number {
  const same = baseline.indexOf(name);
  return same >= 0 ? same : place < baseline.length ? place : 0;
}

/** Reads both runs' results and their items from the datasets domain, and compares them (see compare.ts). */
export async function compareRuns(
  deps: { results: Pick<EvalResults, 'stored' | 'answerMaps' | 'spent'>; datasets: Datasets },
  runId: string,
  baselineId: string,
): Promise<RunComparison> {
  const run = await deps.results.stored(runId);
  const base = await deps.results.stored(baselineId);
  if (run.id === base.id) throw new GatewayError('bad_request', 'baseline_id: a run cannot be its own baseline');
  if (run.dataset_id !== base.dataset_id)
    throw new GatewayError(
      'bad_request',
      `baseline_id: the run "${base.name}" is over another dataset than "${run.name}"; a baseline must be over the same items`,
    );
  const requests = [run, base].map((r) => r.request as DecisionsRequest);
  const keys = [run, base].map((r) => variantKeys(r.variants));
  const questions = requests[0]!.questions as Record<string, Question>;
  const theirs = requests[1]!.questions as Record<string, Question>;
  const compared = Object.fromEntries(Object.entries(questions).filter(([n, q]) => theirs[n]?.type === q.type));
  const notCompared = [...new Set([...Object.keys(questions), ...Object.keys(theirs)])].filter((n) => !(n in compared));
  const items: { position: number; id: string; text: string; expected: Expected }[] = [];
  for await (const i of deps.datasets.iterate(run.dataset_id)) items.push({ position: i.position, id: i.id, text: itemText(i.state), expected: i.expected });
  const answers = (id: string) => deps.results.answerMaps(id);
  const ours = await answers(run.id);
  const others = await answers(base.id);
  const pairs: RunComparison['pairs'] = [];
  const changed: RunComparison['changed'] = [];
  keys[0]!.forEach((model, place) => {
    const other = pairOf(model, place, keys[1]!);
    const rows: ComparedItem[] = items.map((i) => ({
      position: i.position,
      id: i.id,
      text: i.text,
      expected: i.expected,
      run: ours.get(place)?.get(i.position),
      baseline: others.get(other)?.get(i.position),
    }));
    pairs.push({
      model,
      baseline_model: keys[1]![other]!,
      questions: Object.fromEntries(Object.entries(compared).map(([name, q]) => [name, compareQuestion(name, q, rows)])),
    });
    changed.push(...changedItems(compared, rows, model));
  });
  const order = { worse: 0, better: 1, changed: 2 } as const;
  changed.sort((a, b) => order[a.change] - order[b.change] || a.position - b.position);
  const spent = [await deps.results.spent(run.id), await deps.results.spent(base.id)];
  return {
    runs: [run, base].map((r, i) => ({
      id: r.id,
      name: r.name,
      created_at: r.created_at,
      models: keys[i]!,
      questions: requests[i]!.questions as Record<string, unknown>,
      provider: requests[i]!.provider ?? null,
      spent_usd: spent[i]!,
    })),
    interval_method: `95% intervals of each difference: paired percentile bootstrap over the items both runs answered (${resampleCount(items.length).toLocaleString('en-US')} resamples, seeded)`,
    pairs,
    not_compared: notCompared,
    changed: changed.slice(0, LISTED),
    changed_total: changed.length,
    changed_counts: {
      worse: changed.filter((c) => c.change === 'worse').length,
      better: changed.filter((c) => c.change === 'better').length,
      changed: changed.filter((c) => c.change === 'changed').length,
    },
  };
}
