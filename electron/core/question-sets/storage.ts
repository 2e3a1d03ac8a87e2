// The question-sets domain's storage. Implemented by store/sqlite and store/postgres; gathered into Storage by store/ports.ts.

/** A saved question set as stored; `request` is what was saved, checked again by the domain when read. */
export interface StoredQuestionSet {
  id: string;
  name: string;
  request: unknown;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  /** Offered on first start; removable with the samples. */
  sample: boolean;
}

/** The question-sets domain's storage. */
export interface QuestionSetStorage {
  /** Sets not deleted, the most recently updated first. */
  live(): Promise<StoredQuestionSet[]>;
  get(id: string): Promise<StoredQuestionSet | undefined>;
  add(set: StoredQuestionSet): Promise<void>;
  /** Replaces a set's name and request, and brings it back if it was deleted. */
  update(id: string, change: { name: string; request: unknown; updated_at: string }): Promise<void>;
  /** Marks a set deleted at `at`, or not deleted (null). */
  setDeleted(id: string, at: string | null): Promise<void>;
  /** Removes the sample sets for good; how many went. */
  removeSamples(): Promise<number>;
}
