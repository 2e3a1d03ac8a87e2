// The reviews domain's storage. Implemented by store/sqlite and store/postgres; gathered into Storage by store/ports.ts.

/** A person's answers to one item, as kept beside the item's expected answers: who, when, and whether they flagged it. */
export interface StoredReview {
  position: number;
  reviewer: string;
  at: string;
  answers: Record<string, unknown>;
  flagged: boolean;
  /** A second reviewer is to answer the item too (double review); set on the first review only. */
  second_wanted: boolean;
}

/** What writing a review found. */
export type ReviewWrite = 'written' | 'already_reviewed' | 'leased_to_another' | 'no_item';

/** The reviews' storage: leases of items to reviewers, and their answers. */
export interface ReviewStorage {
  /**
   * Leases the first item after position `after` that is open to `reviewer` (no expected answers and
   * no review; or one review, by someone else, that asked for a second) and is not leased to
   * another reviewer until after `now` (ms since the epoch), to `reviewer` until `until`; in one
   * transaction, so two reviewers (on any instance) never hold one item. Its position, or null when
   * none is left.
   */
  claim(datasetId: string, reviewer: string, after: number, now: number, until: number): Promise<number | null>;
  /**
   * Gives back `reviewer`'s lease of the item (a skip, or the reviewer leaving): the item is open
   * to others at once. Another reviewer's lease is left alone. Whether there was one to give back.
   */
  release(datasetId: string, position: number, reviewer: string): Promise<boolean>;
  /**
   * Writes a review: a first one makes the item's expected answers `review.answers` (none when
   * flagged); a second (the first asked for one, and it is another reviewer's) is kept beside it
   * without changing them. The lease is given back. Refused, writing nothing, when the item was
   * labelled otherwise, has the reviews it needs, or another reviewer holds it.
   */
  write(datasetId: string, review: StoredReview, now: number): Promise<ReviewWrite>;
  /** The reviews of a dataset's items (every item when `positions` is null), by position. */
  reviews(datasetId: string, positions: readonly number[] | null): Promise<StoredReview[]>;
  /** How many items have no expected answers and no review, how many were reviewed and flagged, and how many wait for a second review. */
  counts(datasetId: string): Promise<{ open: number; reviewed: number; flagged: number; second_open: number }>;
  /** Keeps reviews as a store copy carries them. */
  putReviews(datasetId: string, reviews: readonly StoredReview[]): Promise<void>;
}
