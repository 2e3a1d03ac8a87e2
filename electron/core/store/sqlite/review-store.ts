import type { ReviewStorage, ReviewWrite, StoredReview } from '../ports';
import { OPEN_ITEM, REVIEW_COLUMNS, REVIEW_COUNTS, reviewParams, toReview, type ReviewRow } from '../review-rows';
import type { Store } from './database';

const q = () => '?';

/** The reviews' tables (`review_leases`, `reviews`) in the SQLite file; a review's answers go into `dataset_items`. */
export class SqliteReviewStore implements ReviewStorage {
  constructor(private readonly store: Store) {}

  async claim(datasetId: string, reviewer: string, after: number, now: number, until: number): Promise<number | null> {
    return this.store.transaction(() => {
      const found = this.store.get<{ position: number }>(OPEN_ITEM(q), [datasetId, after, reviewer, reviewer, now]);
      // One item at a time: a reviewer's other leases in the dataset are given back.
      this.store.run('DELETE FROM review_leases WHERE dataset_id = ? AND reviewer = ?', [datasetId, reviewer]);
      if (!found) return null;
      this.store.run(
        `INSERT INTO review_leases (dataset_id, position, reviewer, until) VALUES (?, ?, ?, ?)
         ON CONFLICT (dataset_id, position) DO UPDATE SET reviewer = excluded.reviewer, until = excluded.until`,
        [datasetId, found.position, reviewer, until],
      );
      return found.position;
    });
  }

  async release(datasetId: string, position: number, reviewer: string): Promise<boolean> {
    return this.store.run('DELETE FROM review_leases WHERE dataset_id = ? AND position = ? AND reviewer = ?', [datasetId, position, reviewer]).changes > 0;
  }

  async write(datasetId: string, review: StoredReview, now: number): Promise<ReviewWrite> {
    return this.store.transaction(() => {
      const item = this.store.get<{ expected: string }>('SELECT expected FROM dataset_items WHERE dataset_id = ? AND position = ?', [
        datasetId,
        review.position,
      ]);
      if (!item) return 'no_item';
      const earlier = this.store.all<{ reviewer: string; second_wanted: number }>(
        'SELECT reviewer, second_wanted FROM reviews WHERE dataset_id = ? AND position = ?',
        [datasetId, review.position],
      );
      const second = earlier.length === 1 && earlier[0]!.second_wanted === 1 && earlier[0]!.reviewer !== review.reviewer;
      if (!second && (earlier.length > 0 || item.expected !== '{}')) return 'already_reviewed';
      const lease = this.store.get<{ reviewer: string; until: number }>('SELECT reviewer, until FROM review_leases WHERE dataset_id = ? AND position = ?', [
        datasetId,
        review.position,
      ]);
      if (lease && lease.reviewer !== review.reviewer && lease.until > now) return 'leased_to_another';
      // A second review is kept beside the first; the first's answers stay the item's expected answers.
      if (!review.flagged && !second)
        this.store.run('UPDATE dataset_items SET expected = ? WHERE dataset_id = ? AND position = ?', [
          JSON.stringify(review.answers),
          datasetId,
          review.position,
        ]);
      this.store.run(`INSERT INTO reviews (dataset_id, ${REVIEW_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)`, [
        datasetId,
        ...reviewParams({ ...review, second_wanted: !second && review.second_wanted }),
      ]);
      this.store.run('DELETE FROM review_leases WHERE dataset_id = ? AND position = ?', [datasetId, review.position]);
      return 'written';
    });
  }

  async reviews(datasetId: string, positions: readonly number[] | null): Promise<StoredReview[]> {
    if (positions?.length === 0) return [];
    const only = positions ? ' AND position IN (SELECT value FROM json_each(?))' : '';
    return this.store
      .all<ReviewRow>(
        `SELECT ${REVIEW_COLUMNS} FROM reviews WHERE dataset_id = ?${only} ORDER BY position, at, reviewer`,
        positions ? [datasetId, JSON.stringify(positions)] : [datasetId],
      )
      .map(toReview);
  }

  async counts(datasetId: string): Promise<{ open: number; reviewed: number; flagged: number; second_open: number }> {
    // The dataset's id once for each of its four places.
    return this.store.get<{ open: number; reviewed: number; flagged: number; second_open: number }>(REVIEW_COUNTS(q), [
      datasetId,
      datasetId,
      datasetId,
      datasetId,
    ])!;
  }

  async putReviews(datasetId: string, reviews: readonly StoredReview[]): Promise<void> {
    this.store.transaction(() => {
      for (const r of reviews)
        this.store.run(`INSERT INTO reviews (dataset_id, ${REVIEW_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)`, [datasetId, ...reviewParams(r)]);
    });
  }
}
