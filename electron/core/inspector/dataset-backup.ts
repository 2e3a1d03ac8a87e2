/**
 * Datasets in a backup: exported item by item in dataset order, with the image sizes and box
 * verdicts kept beside them; checked whole before anything is written, then written in one
 * transaction, so a bad backup adds no dataset at all and says which part is wrong.
 */
import type { BackupDataset } from '../../../shared/schemas/backup-datasets';
import type { Expected } from '../../../shared/schemas/evaluation';
import { isoTime, type Clock } from '../clock';
import type { Datasets } from '../evals/datasets';
import { GatewayError } from '../errors';
import type { Store } from '../store/sqlite/database';

interface VerdictRow {
  item_id: string;
  question: string;
  model: string;
  verdict: 'accepted' | 'rejected' | null;
  note: string;
  answered_at: string | null;
  answers: string;
  truth: string | null;
  updated_at: string;
}

/** Every ready dataset with its items, image sizes and box verdicts. */
export function* exportDatasets(store: Store, datasets: Datasets): Generator<BackupDataset> {
  // Only ready datasets are listed: one still importing is not in a backup.
  for (const summary of datasets.list()) {
    const items: BackupDataset['items'] = [];
    for (const item of datasets.iterate(summary.id))
      items.push({ id: item.id, state: item.state as BackupDataset['items'][number]['state'], expected: item.expected as Expected });
    const image_sizes = store.all<{ item_id: string; width: number | null; height: number | null }>(
      'SELECT item_id, width, height FROM box_image_sizes WHERE dataset_id = ? ORDER BY item_id',
      [summary.id],
    );
    const box_verdicts = store
      .all<VerdictRow>(
        'SELECT item_id, question, model, verdict, note, answered_at, answers, truth, updated_at FROM box_verdicts WHERE dataset_id = ? ORDER BY item_id, question, model',
        [summary.id],
      )
      .map((v) => ({
        ...v,
        answers: JSON.parse(v.answers) as BackupDataset['box_verdicts'][number]['answers'],
        truth: v.truth === null ? null : (JSON.parse(v.truth) as BackupDataset['box_verdicts'][number]['truth']),
      }));
    yield { name: summary.name, created_at: summary.created_at, items, image_sizes, box_verdicts };
  }
}

const edges = (b: { top: number; left: number; bottom: number; right: number }) => ({ top: b.top, left: b.left, bottom: b.bottom, right: b.right });

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
export function importDatasets(store: Store, clock: Clock, datasets: Datasets, list: readonly BackupDataset[]): number {
  checkDatasets(list);
  const now = isoTime(clock);
  store.transaction(() => {
    for (const d of list) {
      const { id } = datasets.create(
        d.name,
        d.items.map((item) => ({ id: item.id, state: item.state, expected: item.expected })),
      );
      for (const s of d.image_sizes)
        store.run('INSERT INTO box_image_sizes (dataset_id, item_id, width, height) VALUES (?, ?, ?, ?)', [id, s.item_id, s.width, s.height]);
      for (const v of d.box_verdicts) {
        // Runs are not in a backup: the verdict keeps its boxes, truth and model, not the run it was given on.
        store.run(
          'INSERT INTO box_verdicts (dataset_id, item_id, question, model, verdict, note, run_id, variant, answered_at, answers, truth, updated_at) VALUES (?, ?, ?, ?, ?, ?, NULL, 0, ?, ?, ?, ?)',
          [
            id,
            v.item_id,
            v.question,
            v.model,
            v.verdict,
            v.note,
            v.answered_at,
            // Written as the review writes them (keys sorted, label first), so an unchanged verdict compares equal.
            JSON.stringify(
              Object.fromEntries(
                Object.keys(v.answers)
                  .sort()
                  .map((k) => [k, edges(v.answers[k]!)]),
              ),
            ),
            v.truth === null ? null : JSON.stringify(v.truth.map((t) => ({ label: t.label, ...edges(t) }))),
            v.updated_at || now,
          ],
        );
      }
    }
  });
  return list.length;
}
