import type { QuestionSetStorage, StoredQuestionSet } from '../ports';
import { questionSetValues } from '../question-set-rows';
import type { PgDatabase } from './database';

// pg returns each column as the port's set has it (json parsed, boolean as boolean).
const COLUMNS = 'id, name, request, created_at, updated_at, deleted_at, sample';

/** The question-sets domain's table in Postgres (the request as json: its text as written, questions in their order). */
export class PgQuestionSetStore implements QuestionSetStorage {
  constructor(private readonly db: PgDatabase) {}

  async live(): Promise<StoredQuestionSet[]> {
    return this.db.query<StoredQuestionSet>(`SELECT ${COLUMNS} FROM question_sets WHERE deleted_at IS NULL ORDER BY updated_at DESC, id`);
  }

  async get(id: string): Promise<StoredQuestionSet | undefined> {
    const [row] = await this.db.query<StoredQuestionSet>(`SELECT ${COLUMNS} FROM question_sets WHERE id = $1`, [id]);
    return row;
  }

  async add(s: StoredQuestionSet): Promise<void> {
    await this.db.query(`INSERT INTO question_sets (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [...questionSetValues(s), s.sample]);
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
