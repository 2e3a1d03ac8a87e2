// The human stage's storage. Implemented by store/sqlite and store/postgres; gathered into Storage by store/ports.ts.

/** A request a cascade sent to people: the review id its caller holds and the item it became. */
export interface StoredHumanReview {
  id: string;
  dataset_id: string;
  position: number;
  created_at: string;
}

export interface HumanReviewStorage {
  add(review: StoredHumanReview): Promise<void>;
  get(id: string): Promise<StoredHumanReview | undefined>;
  /** Every one of a dataset's, as a store copy carries them. */
  all(datasetId: string): Promise<StoredHumanReview[]>;
}
