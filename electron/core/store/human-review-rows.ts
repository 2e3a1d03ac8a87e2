import type { HumanQueueFigures, StoredHumanReview } from '../reviews/human-storage';

/** A human-stage review's row as both backends keep it. */
export interface HumanReviewRow {
  id: string;
  dataset_id: string;
  position: number;
  created_at: string;
  webhook_url: string | null;
  webhook_secret: string | null;
  preset: string | null;
}

export const HUMAN_REVIEW_COLUMNS = 'id, dataset_id, position, created_at, webhook_url, webhook_secret, preset';

export const humanReviewParams = (r: StoredHumanReview): (string | number | null)[] => [
  r.id,
  r.dataset_id,
  r.position,
  r.created_at,
  r.webhook?.url ?? null,
  r.webhook?.secret ?? null,
  r.preset,
];

export const toHumanReview = (r: HumanReviewRow): StoredHumanReview => ({
  id: r.id,
  dataset_id: r.dataset_id,
  position: Number(r.position),
  created_at: r.created_at,
  webhook: r.webhook_url !== null && r.webhook_secret !== null ? { url: r.webhook_url, secret: r.webhook_secret } : null,
  preset: r.preset ?? null,
});

/** The human stage's queue figures per preset named (parameter: since); a request answered once however many reviewed it, at its first answer. */
export const HUMAN_QUEUE_FIGURES = (p: (n: number) => string) => `SELECT h.preset AS preset,
  SUM(CASE WHEN r.at IS NULL THEN 1 ELSE 0 END) AS pending,
  MIN(CASE WHEN r.at IS NULL THEN h.created_at END) AS oldest_pending_at,
  SUM(CASE WHEN r.at >= ${p(1)} THEN 1 ELSE 0 END) AS reviewed_since
FROM human_reviews h
LEFT JOIN (SELECT dataset_id, position, MIN(at) AS at FROM reviews GROUP BY dataset_id, position) r ON r.dataset_id = h.dataset_id AND r.position = h.position
GROUP BY h.preset
ORDER BY h.preset`;

/** One preset's (or, for null, the requests naming none) queue figures as both backends read them. */
export interface HumanQueueRow {
  preset: string | null;
  pending: number | string;
  oldest_pending_at: string | null;
  reviewed_since: number | string;
}

export const toQueueFigures = (r: HumanQueueRow): HumanQueueFigures => ({
  preset: r.preset,
  pending: Number(r.pending),
  oldest_pending_at: r.oldest_pending_at,
  reviewed_since: Number(r.reviewed_since),
});
