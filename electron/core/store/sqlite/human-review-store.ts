import type { HumanReviewStorage, StoredHumanReview } from '../ports';
import type { Store } from './database';

/** The human stage's table (`human_reviews`) in the SQLite file. */
export class SqliteHumanReviewStore implements HumanReviewStorage {
  constructor(private readonly store: Store) {}

  async add(r: StoredHumanReview): Promise<void> {
    this.store.run('INSERT INTO human_reviews (id, dataset_id, position, created_at) VALUES (?, ?, ?, ?)', [r.id, r.dataset_id, r.position, r.created_at]);
  }

  async get(id: string): Promise<StoredHumanReview | undefined> {
    return this.store.get<StoredHumanReview>('SELECT id, dataset_id, position, created_at FROM human_reviews WHERE id = ?', [id]);
  }

  async all(datasetId: string): Promise<StoredHumanReview[]> {
    return this.store.all<StoredHumanReview>('SELECT id, dataset_id, position, created_at FROM human_reviews WHERE dataset_id = ? ORDER BY position', [
      datasetId,
    ]);
  }
}
