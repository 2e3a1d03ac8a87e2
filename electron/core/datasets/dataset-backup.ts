/**
 * Datasets in a backup: exported item by item in dataset order, with the image sizes and box
 * verdicts kept beside them; checked whole before anything is written, so a bad backup adds no
 * dataset at all and says which part is wrong; a dataset whose parts fail to be written is removed again.
 */
import type { BackupDataset } from '../../../shared/schemas/backup-datasets';
import type { Expected } from '../../../shared/schemas/evaluation';
import { isoTime, type Clock } from '../clock';
import type { Datasets } from './datasets';
import { GatewayError } from '../errors';
import type { BoxStorage } from '../store/ports';
import type { Edges } from '../../../shared/geometry/iou';

/** Datasets into a backup and out of one, over the boxes' storage that keeps their image sizes and verdicts. */
export interface DatasetBackup {
  export(): AsyncGenerator<BackupDataset>;
  /** Adds the backup's datasets (checked first with `checkDatasets`); how many were added. */
  import(list: readonly BackupDataset[]): Promise<number>;
}

export function datasetBackup(boxes: BoxStorage, clock: Clock, datasets: Datasets): DatasetBackup {
  return { export: () => exportDatasets(boxes, datasets), import: (list) => importDatasets(boxes, clock, datasets, list) };
}

/** Every ready dataset with its items, image sizes and box verdicts. */
export async function* exportDatasets(boxes: BoxStorage, datasets: Datasets): AsyncGenerator<BackupDataset> {
  // Only ready datasets are listed: one still importing is not in a backup.
  for (const summary of await datasets.list()) {
    const items: BackupDataset['items'] = [];
    for await (const item of datasets.iterate(summary.id))
      items.push({ id: item.id, state: item.state as BackupDataset['items'][number]['state'], expected: item.expected as Expected });
    const image_sizes = [...(await boxes.imageSizes(summary.id))]
      .map(([item_id, s]) => ({ item_id, width: s.width, height: s.height }))
      .sort((a, b) => (a.item_id < b.item_id ? -1 : a.item_id > b.item_id ? 1 : 0));
    const box_verdicts = (await boxes.allVerdicts(summary.id)).map((v) => ({
      item_id: v.item_id,
      question: v.question,
      model: v.model,
      verdict: v.verdict,
      note: v.note,
      answered_at: v.answered_at,
      answers: JSON.parse(v.answers) as BackupDataset['box_verdicts'][number]['answers'],
      truth: v.truth === null ? null : (JSON.parse(v.truth) as BackupDataset['box_verdicts'][number]['truth']),
      updated_at: v.updated_at,
    }));
    yield { name: summary.name, created_at: summary.created_at, items, image_sizes, box_verdicts };
  }
}

const edges = (b: Edges) => ({ top: b.top, left: b.left, bottom: b.bottom, right: b.right });

const bad = (path: string, message: string) => new GatewayError('bad_request', `${path}: ${message}`);

/** Refuses a backup's datasets whose parts do not fit together, naming the first part that is wrong. */
export function checkDatasets(list: readonly BackupDataset[]): void {
  list.forEach((d, i) => {
    const at = `datasets[${i}]`;
    const ids = new Set<string>();
    d.items.forEach((item, k) => {
      if (ids.has(item.id)) throw bad(`${at}.items[${k}].id`, `"${item.id}" is the id of an earlier item of this dataset`);
      ids.add(item.id);
    });
    d.image_sizes.forEach((s, k) => {
      if (!ids.has(s.item_id)) throw bad(`${at}.image_sizes[${k}].item_id`, `no item "${s.item_id}" in this dataset`);
    });
    const keys = new Set<string>();
    d.box_verdicts.forEach((v, k) => {
      if (!ids.has(v.item_id)) throw bad(`${at}.box_verdicts[${k}].item_id`, `no item "${v.item_id}" in this dataset`);
      const key = JSON.stringify([v.item_id, v.question, v.model]);
      if (keys.has(key)) throw bad(`${at}.box_verdicts[${k}]`, `a second verdict on item "${v.item_id}" for the same question and model`);
      keys.add(key);
    });
  });
}

/** Adds the datasets (new ids; names as they were), all or none; returns how many. */
export async function importDatasets(boxes: BoxStorage, clock: Clock, datasets: Datasets, list: readonly BackupDataset[]): Promise<number> {
  checkDatasets(list);
  const now = isoTime(clock);
  const added: string[] = [];
  try {
    for (const d of list) {
      const { id } = await datasets.create(
        d.name,
        d.items.map((item) => ({ id: item.id, state: item.state, expected: item.expected })),
      );
      added.push(id);
      await boxes.keepImageSizes(id, d.image_sizes);
      // Runs are not in a backup: the verdict keeps its boxes, truth and model, not the run it was given on.
      await boxes.putVerdicts(
        id,
        d.box_verdicts.map((v) => ({
          item_id: v.item_id,
          question: v.question,
          model: v.model,
          verdict: v.verdict,
          note: v.note,
          run_id: null,
          variant: 0,
          answered_at: v.answered_at,
          // Written as the review writes them (keys sorted, label first), so an unchanged verdict compares equal.
          answers: JSON.stringify(
            Object.fromEntries(
              Object.keys(v.answers)
                .sort()
                .map((k) => [k, edges(v.answers[k]!)]),
            ),
          ),
          truth: v.truth === null ? null : JSON.stringify(v.truth.map((t) => ({ label: t.label, ...edges(t) }))),
          updated_at: v.updated_at || now,
        })),
      );
    }
  } catch (error) {
    // All or none: what was added before the failure goes again.
    for (const id of added) await datasets.delete(id).catch(() => undefined);
    throw error;
  }
  return list.length;
}
