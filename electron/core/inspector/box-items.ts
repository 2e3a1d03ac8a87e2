import { randomUUID } from 'node:crypto';
import { imageSize } from 'image-size';
import type { BoxItem } from '../../../shared/schemas/inspector';
import { isoTime, type Clock } from '../clock';
import { GatewayError } from '../errors';
import type { Store } from '../store/sqlite/database';

interface Row {
  id: string;
  name: string;
  data_url: string;
  truth: string;
  answer: string | null;
  answers: string;
  model: string | null;
  run_id: string | null;
  verdict: BoxItem['verdict'];
  verdict_run_id: string | null;
  note: string;
  width: number | null;
  height: number | null;
  created_at: string;
}

const COLUMNS: readonly (keyof Row)[] = [
  'id',
  'name',
  'data_url',
  'truth',
  'answer',
  'answers',
  'model',
  'run_id',
  'verdict',
  'verdict_run_id',
  'note',
  'width',
  'height',
  'created_at',
];

const toItem = ({ verdict_run_id, ...r }: Row): BoxItem => ({
  ...r,
  truth: JSON.parse(r.truth) as BoxItem['truth'],
  answer: r.answer ? (JSON.parse(r.answer) as BoxItem['answer']) : null,
  answers: JSON.parse(r.answers) as BoxItem['answers'],
  stale: r.verdict !== null && verdict_run_id !== r.run_id,
  // These rows keep only the run a verdict was given on, not its boxes: whether they changed is not known.
  stale_reason: r.verdict !== null && verdict_run_id !== r.run_id ? 'answers_differ' : null,
  verdict_model: r.verdict !== null && verdict_run_id === r.run_id ? r.model : null,
  // Images added before datasets: one verdict on the whole image, no history.
  verdicts: {},
  history: [],
});

/** Width and height of a base64 data: URL's image, or nulls when its header cannot be read. */
function sizeOf(dataUrl: string): { width: number | null; height: number | null } {
  try {
    const size = imageSize(Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64'));
    return size.width && size.height ? { width: size.width, height: size.height } : { width: null, height: null };
  } catch {
    return { width: null, height: null };
  }
}

export type BoxItemPatch = { [K in 'truth' | 'answer' | 'answers' | 'model' | 'run_id' | 'verdict' | 'note']?: BoxItem[K] | undefined };

/**
 * Images under box review, with people's ground truth and the model's answers. A verdict remembers
 * the run it was given on: when a later run replaces the answers, the item says its verdict is stale.
 */
export class BoxItems {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  /** Every item; without images, data_url is '' and the rows stay small however large the images are. */
  list({ images = true }: { images?: boolean } = {}): BoxItem[] {
    const columns = images ? '*' : `${COLUMNS.filter((c) => c !== 'data_url').join(', ')}, '' AS data_url`;
    return this.store.all<Row>(`SELECT ${columns} FROM box_items ORDER BY created_at, id`).map(toItem);
  }

  image(id: string): { id: string; data_url: string } {
    const row = this.store.get<{ data_url: string }>('SELECT data_url FROM box_items WHERE id = ?', [id]);
    if (!row) throw new GatewayError('not_found', `No image with id "${id}"`);
    return { id, data_url: row.data_url };
  }

  add(name: string, dataUrl: string): BoxItem {
    const { width, height } = sizeOf(dataUrl);
    const row: Row = {
      id: `img-${randomUUID()}`,
      name,
      data_url: dataUrl,
      truth: '[]',
      answer: null,
      answers: '{}',
      model: null,
      run_id: null,
      verdict: null,
      verdict_run_id: null,
      note: '',
      width,
      height,
      created_at: isoTime(this.clock),
    };
    this.store.run('INSERT INTO box_items (id, name, data_url, truth, width, height, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)', [
      row.id,
      row.name,
      row.data_url,
      row.truth,
      width,
      height,
      row.created_at,
    ]);
    return toItem(row);
  }

  update(id: string, patch: BoxItemPatch): BoxItem {
    const row = this.store.get<Row>('SELECT * FROM box_items WHERE id = ?', [id]);
    if (!row) throw new GatewayError('not_found', `No image with id "${id}"`);
    const next: Row = {
      ...row,
      ...(patch.truth !== undefined ? { truth: JSON.stringify(patch.truth) } : {}),
      ...(patch.answer !== undefined ? { answer: patch.answer === null ? null : JSON.stringify(patch.answer) } : {}),
      ...(patch.answers !== undefined ? { answers: JSON.stringify(patch.answers) } : {}),
      ...(patch.model !== undefined ? { model: patch.model } : {}),
      ...(patch.run_id !== undefined ? { run_id: patch.run_id } : {}),
      ...(patch.note !== undefined ? { note: patch.note } : {}),
    };
    // A verdict set now is on the answers as they stand after this patch.
    if (patch.verdict !== undefined) Object.assign(next, { verdict: patch.verdict, verdict_run_id: patch.verdict === null ? null : next.run_id });
    this.store.run('UPDATE box_items SET truth = ?, answer = ?, answers = ?, model = ?, run_id = ?, verdict = ?, verdict_run_id = ?, note = ? WHERE id = ?', [
      next.truth,
      next.answer,
      next.answers,
      next.model,
      next.run_id,
      next.verdict,
      next.verdict_run_id,
      next.note,
      id,
    ]);
    return toItem(next);
  }

  remove(id: string): { id: string } {
    this.store.run('DELETE FROM box_items WHERE id = ?', [id]);
    return { id };
  }
}
