import type { ReviewStorage, ReviewWrite, StoredReview } from '../ports';
import { OPEN_ITEM, REVIEW_COLUMNS, REVIEW_COUNTS, reviewParams, toReview, type ReviewRow } from '../review-rows';
import { itemTokens } from './change-token';
import type { PgDatabase } from './database';

const dollar = (n: number) => `$${n}`;
/** Tries of a claim when another instance leased the item found first. */
const CLAIM_TRIES = 8;

/** The reviews' tables in Postgres; a lease is taken by a conditional upsert, so two instances never lease one item. */
export class PgReviewStore implements ReviewStorage {
  private constructor(
    private readonly db: PgDatabase,
    /** A review writes an item's expected answers, which this process's readers must see at once. */
    private readonly items: { moved(): void },
  ) {}

  static async open(db: PgDatabase): Promise<PgReviewStore> {
    return new PgReviewStore(db, await itemTokens(db));
  }

  async claim(datasetId: string, reviewer: string, after: number, now: number, until: number): Promise<number | null> {
    await this.db.query('DELETE FROM review_leases WHERE dataset_id = $1 AND reviewer = $2', [datasetId, reviewer]);
    for (let tries = 0; tries < CLAIM_TRIES; tries += 1) {
      const [found] = await this.db.query<{ position: number }>(OPEN_ITEM(dollar), [datasetId, after, reviewer, reviewer, now]);
      if (!found) return null;
      // Taken only when nobody else holds it now: racing instances see each other's row here.
      const taken = await this.db.pool.query(
        `INSERT INTO review_leases (dataset_id, position, reviewer, until) VALUES ($1, $2, $3, $4)
         ON CONFLICT (dataset_id, position) DO UPDATE SET reviewer = excluded.reviewer, until = excluded.until
         WHERE review_leases.reviewer = excluded.reviewer OR review_leases.until <= $5`,
        [datasetId, found.position, reviewer, until, now],
      );
      if ((taken.rowCount ?? 0) > 0) return found.position;
    }
    return null;
  }

  async release(datasetId: string, position: number, reviewer: string): Promise<boolean> {
    const gone = await this.db.pool.query('DELETE FROM review_leases WHERE dataset_id = $1 AND position = $2 AND reviewer = $3', [
      datasetId,
      position,
      reviewer,
    ]);
    return (gone.rowCount ?? 0) > 0;
  }

  async write(datasetId: string, review: StoredReview, now: number): Promise<ReviewWrite> {
    const outcome = await this.db.transaction(async (client): Promise<ReviewWrite> => {
      const [item] = (
        await client.query<{ expected: string }>('SELECT expected FROM dataset_items WHERE dataset_id = $1 AND position = $2 FOR UPDATE', [
          datasetId,
          review.position,
        ])
      ).rows;
      if (!item) return 'no_item';
      const earlier = (
        await client.query<{ reviewer: string; second_wanted: number }>('SELECT reviewer, second_wanted FROM reviews WHERE dataset_id = $1 AND position = $2', [
          datasetId,
          review.position,
        ])
      ).rows;
      const second = earlier.length === 1 && Number(earlier[0]!.second_wanted) === 1 && earlier[0]!.reviewer !== review.reviewer;
      if (!second && (earlier.length > 0 || item.expected !== '{}')) return 'already_reviewed';
      const [lease] = (
        await client.query<{ reviewer: string; until: number }>('SELECT reviewer, until FROM review_leases WHERE dataset_id = $1 AND position = $2', [
          datasetId,
          review.position,
        ])
      ).rows;
      if (lease && lease.reviewer !== review.reviewer && lease.until > now) return 'leased_to_another';
      // A second review is kept beside the first; the first's answers stay the item's expected answers.
      if (!review.flagged && !second)
        await client.query('UPDATE dataset_items SET expected = $1 WHERE dataset_id = $2 AND position = $3', [
          JSON.stringify(review.answers),
          datasetId,
          review.position,
        ]);
      await client.query(`INSERT INTO reviews (dataset_id, ${REVIEW_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
        datasetId,
        ...reviewParams({ ...review, second_wanted: !second && review.second_wanted }),
      ]);
      await client.query('DELETE FROM review_leases WHERE dataset_id = $1 AND position = $2', [datasetId, review.position]);
      return 'written';
    });
    if (outcome === 'written') this.items.moved();
    return outcome;
  }

  async reviews(datasetId: string, positions: readonly number[] | null): Promise<StoredReview[]> {
    if (positions?.length === 0) return [];
    const only = positions ? ' AND position = ANY($2::integer[])' : '';
    const rows = await this.db.query<ReviewRow>(
      `SELECT ${REVIEW_COLUMNS} FROM reviews WHERE dataset_id = $1${only} ORDER BY position, at, reviewer COLLATE "C"`,
      positions ? [datasetId, [...positions]] : [datasetId],
    );
    return rows.map(toReview);
  }

  async counts(datasetId: string): Promise<{ open: number; reviewed: number; flagged: number; second_open: number }> {
    const [row] = await this.db.query<{ open: string; reviewed: string; flagged: string; second_open: string }>(REVIEW_COUNTS(dollar), [datasetId]);
    return { open: Number(row!.open), reviewed: Number(row!.reviewed), flagged: Number(row!.flagged), second_open: Number(row!.second_open) };
  }

  async putReviews(datasetId: string, reviews: readonly StoredReview[]): Promise<void> {
    await this.db.transaction(async (client) => {
      for (const r of reviews)
        await client.query(`INSERT INTO reviews (dataset_id, ${REVIEW_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [datasetId, ...reviewParams(r)]);
    });
  }
}
