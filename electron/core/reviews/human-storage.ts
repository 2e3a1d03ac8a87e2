// The human stage's storage. Implemented by store/sqlite and store/postgres; gathered into Storage by store/ports.ts.

/** A request a cascade sent to people: the review id its caller holds and the item it became. */
export interface StoredHumanReview {
  id: string;
  dataset_id: string;
  position: number;
  created_at: string;
  /** Where the person's answers are posted, with the caller's secret that signs them; null when nowhere. */
  webhook: { url: string; secret: string } | null;
  /** The cascade preset the request named, when it named one. */
  preset: string | null;
}

/** The queue of one preset (null: the requests that named none). */
export interface HumanQueueFigures {
  preset: string | null;
  pending: number;
  oldest_pending_at: string | null;
  reviewed_since: number;
}

export interface HumanReviewStorage {
  add(review: StoredHumanReview): Promise<void>;
  get(id: string): Promise<StoredHumanReview | undefined>;
  /** The one a dataset's item became, if any. */
  atItem(datasetId: string, position: number): Promise<StoredHumanReview | undefined>;
  /** Per preset named: how many wait for a person and since when the oldest has, and how many were first answered or flagged since `since` (an ISO time). */
  figures(since: string): Promise<HumanQueueFigures[]>;
  /** Every one of a dataset's, as a store copy carries them. */
  all(datasetId: string): Promise<StoredHumanReview[]>;
}
