import type { HumanQueueFigures, HumanReviewStorage, StoredHumanReview } from '../ports';
import {
  HUMAN_QUEUE_FIGURES,
  HUMAN_REVIEW_COLUMNS,
  humanReviewParams,
  toHumanReview,
  toQueueFigures,
  type HumanQueueRow,
  type HumanReviewRow,
} from '../human-review-rows';
import type { Store } from './database';

/** The human stage's table (`human_reviews`) in the SQLite file. */
export class SqliteHumanReviewStore implements HumanReviewStorage {
  constructor(private readonly store: Store) {}

  async add(r: StoredHumanReview): Promise<void> {
    this.store.run(`INSERT INTO human_reviews (${HUMAN_REVIEW_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)`, humanReviewParams(r));
  }

  async get(id: string): Promise<StoredHumanReview | undefined> {
    const row = this.store.get<HumanReviewRow>(`SELECT ${HUMAN_REVIEW_COLUMNS} FROM human_reviews WHERE id = ?`, [id]);
    return row && toHumanReview(row);
  }

  async atItem(datasetId: string, position: number): Promise<StoredHumanReview | undefined> {
    const row = this.store.get<HumanReviewRow>(`SELECT ${HUMAN_REVIEW_COLUMNS} FROM human_reviews WHERE dataset_id = ? AND position = ?`, [
      datasetId,
      position,
    ]);
    return row && toHumanReview(row);
  }

  async figures(since: string): Promise<HumanQueueFigures[]> {
    return this.store
      .all<HumanQueueRow>(
        HUMAN_QUEUE_FIGURES(() => '?'),
        [since],
      )
      .map(toQueueFigures);
  }

  async all(datasetId: string): Promise<StoredHumanReview[]> {
    return this.store
      .all<HumanReviewRow>(`SELECT ${HUMAN_REVIEW_COLUMNS} FROM human_reviews WHERE dataset_id = ? ORDER BY position`, [datasetId])
      .map(toHumanReview);
  }
}
