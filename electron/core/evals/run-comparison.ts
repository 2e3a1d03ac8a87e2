import type { DecisionsRequest } from '../../../shared/schemas/decisions-request';
import type { Expected, RunComparison } from '../../../shared/schemas/evaluation';
import type { Question } from '../../../shared/schemas/question';
import { GatewayError } from '../errors';
import type { Store } from '../store/sqlite/database';
import { resampleCount } from './bootstrap';
import { changedItems, compareQuestion, type ComparedItem } from './compare';
import { variantKeys } from './eval-runs';
import { itemText } from './item-text';
import type { EvalVariant } from '../../../shared/schemas/evaluation';

interface Row {
  id: string;
  name: string;
  dataset_id: string;
  request: string;
  variants: string;
  created_at: string;
}

/** The changed answers listed; all are counted. */
const LISTED = 500;

/** The place in `baseline` of the model to compare a run's model with: the same name, else the same place, else the first. */
export function pairOf(name: string, place: number, baseline: readonly string[]): number {
  const same = baseline.indexOf(name);
  return same >= 0 ? same : place < baseline.length ? place : 0;
}

/** Reads both runs from the store and compares them (see compare.ts). */
export function compareRuns(store: Store, runId: string, baselineId: string): RunComparison {
  const get = (id: string) => {
    const row = store.get<Row>('SELECT id, name, dataset_id, request, variants, created_at FROM eval_runs WHERE id = ?', [id]);
    if (!row) throw new GatewayError('not_found', `No evaluation run with id "${id}"`);
    return row;
  };
  const run = get(runId);
  const base = get(baselineId);
  if (run.id === base.id) throw new GatewayError('bad_request', 'baseline_id: a run cannot be its own baseline');
  if (run.dataset_id !== base.dataset_id)
    throw new GatewayError(
      'bad_request',
      `baseline_id: the run "${base.name}" is over another dataset than "${run.name}"; a baseline must be over the same items`,
    );
  const requests = [run, base].map((r) => JSON.parse(r.request) as DecisionsRequest);
  const keys = [run, base].map((r) => variantKeys(JSON.parse(r.variants) as EvalVariant[]));
  const questions = requests[0]!.questions as Record<string, Question>;
  const theirs = requests[1]!.questions as Record<string, Question>;
  const compared = Object.fromEntries(Object.entries(questions).filter(([n, q]) => theirs[n]?.type === q.type));
  const notCompared = [...new Set([...Object.keys(questions), ...Object.keys(theirs)])].filter((n) => !(n in compared));
  const items = store.all<{ position: number; id: string; state: string; expected: string }>(
    'SELECT position, id, state, expected FROM dataset_items WHERE dataset_id = ? ORDER BY position',
    [run.dataset_id],
  );
  const answers = (id: string) => {
    const byVariant = new Map<number, Map<number, Record<string, unknown>>>();
    for (const r of store.all<{ variant: number; position: number; answers: string }>(
      'SELECT variant, position, answers FROM eval_results WHERE run_id = ? AND ok = 1',
      [id],
    )) {
      if (!byVariant.has(r.variant)) byVariant.set(r.variant, new Map());
      byVariant.get(r.variant)!.set(r.position, JSON.parse(r.answers) as Record<string, unknown>);
    }
    return byVariant;
  };
  const ours = answers(run.id);
  const others = answers(base.id);
  const pairs: RunComparison['pairs'] = [];
  const changed: RunComparison['changed'] = [];
  keys[0]!.forEach((model, place) => {
    const other = pairOf(model, place, keys[1]!);
    const rows: ComparedItem[] = items.map((i) => ({
      position: i.position,
      id: i.id,
      text: itemText(JSON.parse(i.state)),
      expected: JSON.parse(i.expected) as Expected,
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
  const spent = (id: string) => store.get<{ s: number }>('SELECT COALESCE(SUM(cost), 0) AS s FROM eval_results WHERE run_id = ?', [id])!.s;
  return {
    runs: [run, base].map((r, i) => ({
      id: r.id,
      name: r.name,
      created_at: r.created_at,
      models: keys[i]!,
      questions: requests[i]!.questions as Record<string, unknown>,
      provider: requests[i]!.provider ?? null,
      spent_usd: spent(r.id),
    })),
    interval_method: `95% intervals of each difference: paired percentile bootstrap over the items both runs answered (${resampleCount(items.length).toLocaleString('en-US')} resamples, seeded)`,
    pairs,
    not_compared: notCompared,
    changed: changed.slice(0, LISTED),
    changed_total: changed.length,
  };
}
