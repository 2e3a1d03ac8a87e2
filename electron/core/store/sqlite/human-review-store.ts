import type { HumanQueueFigures, HumanReviewStorage, StoredHumanReview } from '../ports';
import * as human from '../human-review-rows';
import type { Store } from './database';

/** The human stage's table (`human_reviews`) in the SQLite file. */
export class SqliteHumanReviewStore implements HumanReviewStorage {
  constructor(private readonly store: Store) {}

  async add(r: StoredHumanReview): Promise<void> {
    this.store.run(`INSERT INTO human_reviews (${human.HUMAN_REVIEW_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)`, human.humanReviewParams(r));
  }

  async get(id: string): Promise<StoredHumanReview | undefined> {
    const row = this.store.get<human.HumanReviewRow>(`SELECT ${human.HUMAN_REVIEW_COLUMNS} FROM human_reviews WHERE id = ?`, [id]);
    return row && human.toHumanReview(row);
  }

  async atItem(datasetId: string, position: number): Promise<StoredHumanReview | undefined> {
    const row = this.store.get<human.HumanReviewRow>(`SELECT ${human.HUMAN_REVIEW_COLUMNS} FROM human_reviews WHERE dataset_id = ? AND position = ?`, [
      datasetId,
      position,
    ]);
    return row && human.toHumanReview(row);
  }

  async figures(since: string): Promise<HumanQueueFigures[]> {
    return this.store
      .all<human.HumanQueueRow>(
        human.HUMAN_QUEUE_FIGURES(() => '?'),
        [since],
      )
      .map(human.toQueueFigures);
  }

  async all(datasetId: string): Promise<StoredHumanReview[]> {
    return this.store
      .all<human.HumanReviewRow>(`SELECT ${human.HUMAN_REVIEW_COLUMNS} FROM human_reviews WHERE dataset_id = ? ORDER BY position`, [datasetId])
      .map(human.toHumanReview);
  }
}
