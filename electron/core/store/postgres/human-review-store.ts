import type { HumanQueueFigures, HumanReviewStorage, StoredHumanReview } from '../ports';
import * as human from '../human-review-rows';
import type { PgDatabase } from './database';

/** The human stage's table in Postgres. */
export class PgHumanReviewStore implements HumanReviewStorage {
  constructor(private readonly db: PgDatabase) {}

  async add(r: StoredHumanReview): Promise<void> {
    await this.db.query(`INSERT INTO human_reviews (${human.HUMAN_REVIEW_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)`, human.humanReviewParams(r));
  }

  async get(id: string): Promise<StoredHumanReview | undefined> {
    const [row] = await this.db.query<human.HumanReviewRow>(`SELECT ${human.HUMAN_REVIEW_COLUMNS} FROM human_reviews WHERE id = $1`, [id]);
    return row && human.toHumanReview(row);
  }

  async atItem(datasetId: string, position: number): Promise<StoredHumanReview | undefined> {
    const [row] = await this.db.query<human.HumanReviewRow>(`SELECT ${human.HUMAN_REVIEW_COLUMNS} FROM human_reviews WHERE dataset_id = $1 AND position = $2`, [
      datasetId,
      position,
    ]);
    return row && human.toHumanReview(row);
  }

  async figures(since: string): Promise<HumanQueueFigures[]> {
    return (
      await this.db.query<human.HumanQueueRow>(
        human.HUMAN_QUEUE_FIGURES((n) => `$${n}`),
        [since],
      )
    ).map(human.toQueueFigures);
  }

  async all(datasetId: string): Promise<StoredHumanReview[]> {
    const rows = await this.db.query<human.HumanReviewRow>(`SELECT ${human.HUMAN_REVIEW_COLUMNS} FROM human_reviews WHERE dataset_id = $1 ORDER BY position`, [
      datasetId,
    ]);
    return rows.map(human.toHumanReview);
  }
}
