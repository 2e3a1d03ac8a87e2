import type { QuestionSetStorage, StoredQuestionSet } from '../ports';
import { questionSetValues } from '../question-set-rows';
import type { Store } from './database';

interface Row {
  id: string;
  name: string;
  request: string;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  sample: number;
}

const toSet = (r: Row): StoredQuestionSet => ({
  id: r.id,
  name: r.name,
  request: JSON.parse(r.request) as unknown,
  created_at: r.created_at,
  updated_at: r.updated_at,
  deleted_at: r.deleted_at,
  sample: r.sample === 1,
});

/** The question-sets domain's table (`question_sets`) in the SQLite file. */
export class SqliteQuestionSetStore implements QuestionSetStorage {
  constructor(private readonly store: Store) {}

  async live(): Promise<StoredQuestionSet[]> {
    return this.store.all<Row>('SELECT * FROM question_sets WHERE deleted_at IS NULL ORDER BY updated_at DESC, id').map(toSet);
  }

  async get(id: string): Promise<StoredQuestionSet | undefined> {
    const row = this.store.get<Row>('SELECT * FROM question_sets WHERE id = ?', [id]);
    return row ? toSet(row) : undefined;
  }

  async add(s: StoredQuestionSet): Promise<void> {
    this.store.run('INSERT INTO question_sets (id, name, request, created_at, updated_at, deleted_at, sample) VALUES (?, ?, ?, ?, ?, ?, ?)', [
      ...questionSetValues(s),
      s.sample ? 1 : 0,
    ]);
  }

  async update(id: string, change: { name: string; request: unknown; updated_at: string }): Promise<void> {
    this.store.run('UPDATE question_sets SET name = ?, request = ?, updated_at = ?, deleted_at = NULL WHERE id = ?', [
      change.name,
      JSON.stringify(change.request),
      change.updated_at,
      id,
    ]);
  }

  async setDeleted(id: string, at: string | null): Promise<void> {
    this.store.run('UPDATE question_sets SET deleted_at = ? WHERE id = ?', [at, id]);
  }

  async removeSamples(): Promise<number> {
    return this.store.run('DELETE FROM question_sets WHERE sample = 1').changes;
  }
}
