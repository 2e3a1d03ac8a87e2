/** What the boxes' stores on both backends share: an item as a row and back (JSON kept as text on both). */
import type { StoredBoxItem } from './ports';

export interface ItemRow extends Omit<StoredBoxItem, 'truth' | 'answer' | 'answers'> {
  truth: string;
  answer: string | null;
  answers: string;
}

/** Every item column but the image (which a listing leaves out unless asked). */
export const ITEM_COLUMNS = 'id, name, truth, answer, answers, model, run_id, verdict, verdict_run_id, note, width, height, created_at';

export const toItem = (r: ItemRow): StoredBoxItem => ({
  ...r,
  truth: JSON.parse(r.truth) as unknown[],
  answer: r.answer === null ? null : (JSON.parse(r.answer) as unknown),
  answers: JSON.parse(r.answers) as Record<string, unknown>,
});

/** An item's values in the order of `INSERT INTO box_items (id, name, data_url, truth, ..., created_at)`. */
export const itemValues = (i: StoredBoxItem): (string | number | null)[] => [
  i.id,
  i.name,
  i.data_url,
  JSON.stringify(i.truth),
  i.answer === null ? null : JSON.stringify(i.answer),
  JSON.stringify(i.answers),
  i.model,
  i.run_id,
  i.verdict,
  i.verdict_run_id,
  i.note,
  i.width,
  i.height,
  i.created_at,
];
