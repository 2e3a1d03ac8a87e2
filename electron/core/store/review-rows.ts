import type { StoredReview } from '../reviews/storage';

/** A review's row as both backends keep it: the answers as JSON text, the flag as 0/1. */
export interface ReviewRow {
  position: number;
  reviewer: string;
  at: string;
  answers: string;
  flagged: number;
}

export const REVIEW_COLUMNS = 'position, reviewer, at, answers, flagged';

export const toReview = (r: ReviewRow): StoredReview => ({
  position: Number(r.position),
  reviewer: r.reviewer,
  at: r.at,
  answers: JSON.parse(r.answers) as Record<string, unknown>,
  flagged: Number(r.flagged) === 1,
});

/** The row's values after its dataset, in `REVIEW_COLUMNS` order. */
export const reviewParams = (r: StoredReview): (string | number)[] => [r.position, r.reviewer, r.at, JSON.stringify(r.answers), r.flagged ? 1 : 0];

/** Items open for review: no expected answers, no review, not leased to another reviewer now. Parameters: dataset, after, reviewer, now. */
export const OPEN_ITEM = (p: (n: number) => string) => `SELECT i.position FROM dataset_items i
  WHERE i.dataset_id = ${p(1)} AND i.position > ${p(2)} AND i.expected = '{}'
    AND NOT EXISTS (SELECT 1 FROM reviews r WHERE r.dataset_id = i.dataset_id AND r.position = i.position)
    AND NOT EXISTS (SELECT 1 FROM review_leases l WHERE l.dataset_id = i.dataset_id AND l.position = i.position AND l.reviewer <> ${p(3)} AND l.until > ${p(4)})
  ORDER BY i.position LIMIT 1`;

/** How many items are open (no expected answers, no review), reviewed, and flagged. Parameter: dataset. */
export const REVIEW_COUNTS = (p: (n: number) => string) => `SELECT
  (SELECT COUNT(*) FROM dataset_items i WHERE i.dataset_id = ${p(1)} AND i.expected = '{}'
     AND NOT EXISTS (SELECT 1 FROM reviews r WHERE r.dataset_id = i.dataset_id AND r.position = i.position)) AS open,
  (SELECT COUNT(DISTINCT position) FROM reviews WHERE dataset_id = ${p(1)}) AS reviewed,
  (SELECT COUNT(DISTINCT position) FROM reviews WHERE dataset_id = ${p(1)} AND flagged = 1) AS flagged`;
