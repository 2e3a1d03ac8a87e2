import type { StoredReview } from '../reviews/storage';

/** A review's row as both backends keep it: the answers as JSON text, the flag as 0/1. */
export interface ReviewRow {
  position: number;
  reviewer: string;
  at: string;
  answers: string;
  flagged: number;
  second_wanted: number;
}

export const REVIEW_COLUMNS = 'position, reviewer, at, answers, flagged, second_wanted';

export const toReview = (r: ReviewRow): StoredReview => ({
  position: Number(r.position),
  reviewer: r.reviewer,
  at: r.at,
  answers: JSON.parse(r.answers) as Record<string, unknown>,
  flagged: Number(r.flagged) === 1,
  second_wanted: Number(r.second_wanted) === 1,
});

/** The row's values after its dataset, in `REVIEW_COLUMNS` order. */
export const reviewParams = (r: StoredReview): (string | number)[] => [
  r.position,
  r.reviewer,
  r.at,
  JSON.stringify(r.answers),
  r.flagged ? 1 : 0,
  r.second_wanted ? 1 : 0,
];

/**
 * Items open to a reviewer: no expected answers and no review; or exactly one review, by someone
 * else, that asked for a second; and not leased to another reviewer now. Parameters: dataset, after,
 * reviewer, reviewer, now.
 */
export const OPEN_ITEM = (p: (n: number) => string) => `SELECT i.position FROM dataset_items i
  WHERE i.dataset_id = ${p(1)} AND i.position > ${p(2)}
    AND (
      (i.expected = '{}' AND NOT EXISTS (SELECT 1 FROM reviews r WHERE r.dataset_id = i.dataset_id AND r.position = i.position))
      OR ((SELECT COUNT(*) FROM reviews r WHERE r.dataset_id = i.dataset_id AND r.position = i.position) = 1
        AND EXISTS (SELECT 1 FROM reviews r WHERE r.dataset_id = i.dataset_id AND r.position = i.position AND r.second_wanted = 1 AND r.reviewer <> ${p(3)}))
    )
    AND NOT EXISTS (SELECT 1 FROM review_leases l WHERE l.dataset_id = i.dataset_id AND l.position = i.position AND l.reviewer <> ${p(4)} AND l.until > ${p(5)})
  ORDER BY i.position LIMIT 1`;

/** How many items are open (no expected answers, no review), reviewed, flagged, and waiting for a second review. Parameter: dataset. */
export const REVIEW_COUNTS = (p: (n: number) => string) => `SELECT
  (SELECT COUNT(*) FROM dataset_items i WHERE i.dataset_id = ${p(1)} AND i.expected = '{}'
     AND NOT EXISTS (SELECT 1 FROM reviews r WHERE r.dataset_id = i.dataset_id AND r.position = i.position)) AS open,
  (SELECT COUNT(DISTINCT position) FROM reviews WHERE dataset_id = ${p(1)}) AS reviewed,
  (SELECT COUNT(DISTINCT position) FROM reviews WHERE dataset_id = ${p(1)} AND flagged = 1) AS flagged,
  (SELECT COUNT(*) FROM reviews r WHERE r.dataset_id = ${p(1)} AND r.second_wanted = 1
     AND (SELECT COUNT(*) FROM reviews o WHERE o.dataset_id = r.dataset_id AND o.position = r.position) = 1) AS second_open`;
