import { randomUUID } from 'node:crypto';
import type { BoxItem } from '../../../shared/schemas/inspector';
import { isoTime, type Clock } from '../clock';
import { GatewayError } from '../errors';
import type { Store } from '../store/database';

interface Row {
  id: string;
  name: string;
  data_url: string;
  truth: string;
  answer: string | null;
  model: string | null;
  run_id: string | null;
  verdict: BoxItem['verdict'];
  note: string;
  created_at: string;
}

const toItem = (r: Row): BoxItem => ({ ...r, truth: JSON.parse(r.truth) as BoxItem['truth'], answer: r.answer ? (JSON.parse(r.answer) as BoxItem['answer']) : null });

/** Images under box review, with people's ground truth and the model's answers. */
export class BoxItems {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  list(): BoxItem[] {
    return this.store.all<Row>('SELECT * FROM box_items ORDER BY created_at, id').map(toItem);
  }

  add(name: string, dataUrl: string): BoxItem {
    const row: Row = { id: `img-${randomUUID()}`, name, data_url: dataUrl, truth: '[]', answer: null, model: null, run_id: null, verdict: null, note: '', created_at: isoTime(this.clock) };
    this.store.run('INSERT INTO box_items (id, name, data_url, truth, created_at) VALUES (?, ?, ?, ?, ?)', [row.id, row.name, row.data_url, row.truth, row.created_at]);
    return toItem(row);
  }

  update(id: string, patch: { [K in 'truth' | 'answer' | 'model' | 'run_id' | 'verdict' | 'note']?: BoxItem[K] | undefined }): BoxItem {
    const row = this.store.get<Row>('SELECT * FROM box_items WHERE id = ?', [id]);
    if (!row) throw new GatewayError('not_found', `No image with id "${id}"`);
    const next: Row = {
      ...row,
      ...(patch.truth !== undefined ? { truth: JSON.stringify(patch.truth) } : {}),
      ...(patch.answer !== undefined ? { answer: patch.answer === null ? null : JSON.stringify(patch.answer) } : {}),
      ...(patch.model !== undefined ? { model: patch.model } : {}),
      ...(patch.run_id !== undefined ? { run_id: patch.run_id } : {}),
      ...(patch.verdict !== undefined ? { verdict: patch.verdict } : {}),
      ...(patch.note !== undefined ? { note: patch.note } : {}),
    };
    this.store.run('UPDATE box_items SET truth = ?, answer = ?, model = ?, run_id = ?, verdict = ?, note = ? WHERE id = ?', [next.truth, next.answer, next.model, next.run_id, next.verdict, next.note, id]);
    return toItem(next);
  }

  remove(id: string): { id: string } {
    this.store.run('DELETE FROM box_items WHERE id = ?', [id]);
    return { id };
  }
}
