import type { StoredHumanReview } from '../reviews/human-storage';

/** A human-stage review's row as both backends keep it. */
export interface HumanReviewRow {
  id: string;
  dataset_id: string;
  position: number;
  created_at: string;
  webhook_url: string | null;
  webhook_secret: string | null;
}

export const HUMAN_REVIEW_COLUMNS = 'id, dataset_id, position, created_at, webhook_url, webhook_secret';

export const humanReviewParams = (r: StoredHumanReview): (string | number | null)[] => [
  r.id,
  r.dataset_id,
  r.position,
  r.created_at,
  r.webhook?.url ?? null,
  r.webhook?.secret ?? null,
];

export const toHumanReview = (r: HumanReviewRow): StoredHumanReview => ({
  id: r.id,
  dataset_id: r.dataset_id,
  position: Number(r.position),
  created_at: r.created_at,
  webhook: r.webhook_url !== null && r.webhook_secret !== null ? { url: r.webhook_url, secret: r.webhook_secret } : null,
});

/** The human stage's queue figures (parameter: since). */
export const HUMAN_QUEUE_FIGURES = (p: (n: number) => string) => `SELECT
  (SELECT COUNT(*) FROM human_reviews h WHERE NOT EXISTS (SELECT 1 FROM reviews r WHERE r.dataset_id = h.dataset_id AND r.position = h.position)) AS pending,
  (SELECT MIN(h.created_at) FROM human_reviews h WHERE NOT EXISTS (SELECT 1 FROM reviews r WHERE r.dataset_id = h.dataset_id AND r.position = h.position)) AS oldest_pending_at,
  (SELECT COUNT(DISTINCT h.id) FROM human_reviews h JOIN reviews r ON r.dataset_id = h.dataset_id AND r.position = h.position WHERE r.at >= ${p(1)}) AS reviewed_since`;
