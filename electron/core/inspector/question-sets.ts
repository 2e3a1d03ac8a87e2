import { randomUUID } from 'node:crypto';
import { DecisionsRequestSchema, type DecisionsRequest } from '../../../shared/schemas/decisions-request';
import type { QuestionSetSummary } from '../../../shared/schemas/inspector';
import { isoTime, type Clock } from '../clock';
import { GatewayError } from '../errors';
import type { Store } from '../store/sqlite/database';

interface Row {
  id: string;
  name: string;
  request: string;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  sample: number;
}

const summary = (row: Row): QuestionSetSummary => {
  const request = JSON.parse(row.request) as DecisionsRequest;
  return { id: row.id, name: row.name, model: request.model, question_count: Object.keys(request.questions).length, updated_at: row.updated_at, sample: row.sample === 1 };
};

/** Saved question sets; deleting marks a set so that it can be restored (undo). */
export class QuestionSets {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  list(): QuestionSetSummary[] {
    return this.store.all<Row>('SELECT * FROM question_sets WHERE deleted_at IS NULL ORDER BY updated_at DESC').map(summary);
  }

  private row(id: string): Row {
    const row = this.store.get<Row>('SELECT * FROM question_sets WHERE id = ?', [id]);
    if (!row) throw new GatewayError('not_found', `No question set with id "${id}"`);
    return row;
  }

  get(id: string): { id: string; name: string; request: DecisionsRequest } {
    const row = this.row(id);
    if (row.deleted_at) throw new GatewayError('not_found', `Question set "${row.name}" was deleted`);
    const parsed = DecisionsRequestSchema.safeParse(JSON.parse(row.request));
    if (!parsed.success) throw new GatewayError('internal', `Question set "${row.name}" no longer validates`);
    return { id: row.id, name: row.name, request: parsed.data };
  }

  /** `sample` marks the set offered on first start (only new sets take it). */
  save(input: { id?: string | undefined; name: string; request: DecisionsRequest; sample?: boolean }): QuestionSetSummary {
    const now = isoTime(this.clock);
    if (input.id) {
      const existing = this.row(input.id);
      this.store.run('UPDATE question_sets SET name = ?, request = ?, updated_at = ?, deleted_at = NULL WHERE id = ?', [input.name, JSON.stringify(input.request), now, existing.id]);
      return summary({ ...existing, name: input.name, request: JSON.stringify(input.request), updated_at: now });
    }
    const row: Row = { id: `set-${randomUUID()}`, name: input.name, request: JSON.stringify(input.request), created_at: now, updated_at: now, deleted_at: null, sample: input.sample ? 1 : 0 };
    this.store.run('INSERT INTO question_sets (id, name, request, created_at, updated_at, sample) VALUES (?, ?, ?, ?, ?, ?)', [row.id, row.name, row.request, row.created_at, row.updated_at, row.sample]);
    return summary(row);
  }

  delete(id: string): { id: string } {
    this.row(id);
    this.store.run('UPDATE question_sets SET deleted_at = ? WHERE id = ?', [isoTime(this.clock), id]);
    return { id };
  }

  restore(id: string): QuestionSetSummary {
    const row = this.row(id);
    this.store.run('UPDATE question_sets SET deleted_at = NULL WHERE id = ?', [id]);
    return summary({ ...row, deleted_at: null });
  }
}
