import type { DecisionsRequest } from '../../../../shared/schemas/decisions-request';
import type { DatasetFit, DatasetSummary } from '../../../../shared/schemas/evaluation';

/** What a set's questions are about: images, text, or unknown (a set saved without content and with no box question). */
export type SetContent = 'images' | 'text' | 'unknown';

/** Images when its own content holds one or a question asks for a box; text when its own content is text; else unknown. */
export function setContent(request: Pick<DecisionsRequest, 'state' | 'questions' | 'assets'>): SetContent {
  const state = typeof request.state === 'string' ? request.state : JSON.stringify(request.state);
  const boxes = Object.values(request.questions).some((q) => q.type === 'box');
  if (boxes || state.includes('"image_url"') || state.includes('data:image/') || Object.keys(request.assets ?? {}).length > 0) return 'images';
  const text = typeof request.state === 'string' ? request.state.trim() !== '' : state !== '{}' && state !== '[]' && state !== 'null';
  return text ? 'text' : 'unknown';
}

/**
 * The dataset the form starts on: one picked in the Datasets list, else the one the set last ran on,
 * else the first with labels for the set, else the first. Null while there is none.
 */
export function defaultDataset(datasets: readonly Pick<DatasetSummary, 'id'>[], fits: readonly DatasetFit[] | undefined, picked: string | null): string | null {
  const exists = (id: string | null | undefined) => id != null && datasets.some((d) => d.id === id);
  if (exists(picked)) return picked;
  const ran = (fits ?? []).filter((f) => f.last_run_at !== null && exists(f.dataset_id));
  if (ran.length > 0) return ran.reduce((a, b) => (b.last_run_at! > a.last_run_at! ? b : a)).dataset_id;
  const labelled = datasets.find((d) => (fits ?? []).some((f) => f.dataset_id === d.id && f.labelled_items > 0));
  return labelled?.id ?? datasets[0]?.id ?? null;
}

/** A dataset as the picker lists it: its name, its size, and how many of its items the set's questions can be judged on. */
export function datasetOption(d: Pick<DatasetSummary, 'name' | 'items'>, fit: DatasetFit | undefined): string {
  const noun = fit?.images ? (d.items === 1 ? 'image' : 'images') : d.items === 1 ? 'item' : 'items';
  if (!fit) return `${d.name} (${d.items} ${noun})`;
  const labelled = fit.labelled_items === 0 ? 'none' : fit.labelled_items === d.items ? 'all' : String(fit.labelled_items);
  return `${d.name} (${d.items} ${noun}, ${labelled} labelled for this set)`;
}

/**
 * What is wrong with running the set over the dataset, said before anything is sent: no item
 * labelled for its questions (nothing can be judged), or text questions over images or the reverse.
 * Empty when nothing is.
 */
export function pairingProblems(options: {
  set: { name: string; questions: string[]; content: SetContent };
  dataset: Pick<DatasetSummary, 'name'>;
  fit: DatasetFit;
}): string[] {
  const { set, dataset, fit } = options;
  const problems: string[] = [];
  if (fit.labelled_items === 0) {
    const names = set.questions.map((q) => `“${q}”`).join(', ');
    problems.push(
      `No item of “${dataset.name}” has an expected answer for ${set.questions.length === 1 ? 'the question' : 'any of the questions'} ${names}: every answer would be paid for and none judged.`,
    );
  }
  if (set.content === 'text' && fit.images)
    problems.push(`“${set.name}” asks about text, and the items of “${dataset.name}” are images: each would be sent to the models as an image.`);
  if (set.content === 'images' && !fit.images)
    problems.push(`“${set.name}” asks about images, and the items of “${dataset.name}” are not images: the models would be sent text.`);
  return problems;
}
