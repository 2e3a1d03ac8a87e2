/**
 * The sample question set and its labelled dataset, offered on first start: added together, marked
 * as samples in every list, removed together (with the evaluation runs made on the dataset).
 */
import type { DatasetSummary } from '../../../shared/schemas/evaluation';
import type { QuestionSetSummary } from '../../../shared/schemas/inspector';
import type { DecisionsRequest } from '../../../shared/schemas/decisions-request';
import type { Datasets } from '../datasets/datasets';
import type { EvalRunBook } from '../evaluations/runs/run-book';
import type { QuestionSets } from '../question-sets/question-sets';
import { SAMPLE_DATASET_NAME, SAMPLE_QUESTIONS, SAMPLE_ROWS, SAMPLE_SET_NAME } from './support-tickets';

export interface SampleDeps {
  questionSets: QuestionSets;
  datasets: Datasets;
  evalRuns: Pick<EvalRunBook, 'list' | 'cancel'>;
}

/** The sample set asks the baseline about the first ticket; Evaluations asks it of every ticket. */
export const SAMPLE_REQUEST: DecisionsRequest = {
  model: 'sandbox/baseline-text',
  state: SAMPLE_ROWS[0]!.state,
  questions: SAMPLE_QUESTIONS,
} as DecisionsRequest;

/**
 * Adds the sample set and dataset, unless they are there already (then returns those). Each is added
 * on its own; a second call adds what the first did not.
 */
export async function addSamples(deps: SampleDeps): Promise<{ set: QuestionSetSummary; dataset: DatasetSummary }> {
  const set =
    (await deps.questionSets.list()).find((s) => s.sample) ?? (await deps.questionSets.save({ name: SAMPLE_SET_NAME, request: SAMPLE_REQUEST, sample: true }));
  const dataset = (await deps.datasets.list()).find((d) => d.sample) ?? (await deps.datasets.create(SAMPLE_DATASET_NAME, SAMPLE_ROWS, { sample: true }));
  return { set, dataset };
}

/** Removes every sample set and dataset, and the evaluation runs over the sample datasets. */
export async function removeSamples(deps: SampleDeps): Promise<{ sets: number; datasets: number }> {
  const datasets = (await deps.datasets.list()).filter((d) => d.sample);
  for (const run of await deps.evalRuns.list()) if (datasets.some((d) => d.id === run.dataset_id)) await deps.evalRuns.cancel(run.id);
  // Each goes on its own: a removal cut short is finished by the next.
  for (const d of datasets) await deps.datasets.delete(d.id);
  const sets = await deps.questionSets.removeSamples();
  return { sets, datasets: datasets.length };
}
