import type { HumanReviewStorage, StoredHumanReview } from '../ports';
import type { PgDatabase } from './database';

/** The human stage's table in Postgres. */
export class PgHumanReviewStore implements HumanReviewStorage {
  constructor(private readonly db: PgDatabase) {}

  async add(r: StoredHumanReview): Promise<void> {
    await this.db.query('INSERT INTO human_reviews (id, dataset_id, position, created_at) VALUES ($1, $2, $3, $4)', [
      r.id,
      r.dataset_id,
      r.position,
      r.created_at,
    ]);
  }

  async get(id: string): Promise<StoredHumanReview | undefined> {
    const [row] = await this.db.query<StoredHumanReview>('SELECT id, dataset_id, position, created_at FROM human_reviews WHERE id = $1', [id]);
    return row;
  }

  async all(datasetId: string): Promise<StoredHumanReview[]> {
    return this.db.query<StoredHumanReview>('SELECT id, dataset_id, position, created_at FROM human_reviews WHERE dataset_id = $1 ORDER BY position', [
      datasetId,
    ]);
  }
}
