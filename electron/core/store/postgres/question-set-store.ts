import type { QuestionSetStorage, StoredQuestionSet } from '../ports';
import type { PgDatabase } from './database';

interface Row {
  id: string;
  name: string;
  request: unknown;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  sample: boolean;
}

const COLUMNS = 'id, name, request, created_at, updated_at, deleted_at, sample';
const toSet = (r: Row): StoredQuestionSet => ({ ...r });

/** The question-sets domain's table in Postgres (the request as jsonb). */
export class PgQuestionSetStore implements QuestionSetStorage {
  constructor(private readonly db: PgDatabase) {}

  async live(): Promise<StoredQuestionSet[]> {
    return (await this.db.query<Row>(`SELECT ${COLUMNS} FROM question_sets WHERE deleted_at IS NULL ORDER BY updated_at DESC, id`)).map(toSet);
  }

  async get(id: string): Promise<StoredQuestionSet | undefined> {
    const [row] = await this.db.query<Row>(`SELECT ${COLUMNS} FROM question_sets WHERE id = $1`, [id]);
    return row ? toSet(row) : undefined;
  }

  async add(s: StoredQuestionSet): Promise<void> {
    await this.db.query(`INSERT INTO question_sets (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
      s.id,
      s.name,
      JSON.stringify(s.request),
      s.created_at,
      s.updated_at,
      s.deleted_at,
      s.sample,
    ]);
  }

  async update(id: string, change: { name: string; request: unknown; updated_at: string }): Promise<void> {
    await this.db.query('UPDATE question_sets SET name = $1, request = $2, updated_at = $3, deleted_at = NULL WHERE id = $4', [
      change.name,
      JSON.stringify(change.request),
      change.updated_at,
      id,
    ]);
  }

  async setDeleted(id: string, at: string | null): Promise<void> {
    await this.db.query('UPDATE question_sets SET deleted_at = $1 WHERE id = $2', [at, id]);
  }

  async removeSamples(): Promise<number> {
    return (await this.db.pool.query('DELETE FROM question_sets WHERE sample')).rowCount ?? 0;
  }
}
