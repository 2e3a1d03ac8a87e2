// The datasets domain's storage. Implemented by store/sqlite and store/postgres; gathered into Storage by store/ports.ts.

/** A labelled dataset, ready to use (one still importing is not listed). */
export interface StoredDataset {
  id: string;
  name: string;
  /** how many items it has */
  items: number;
  created_at: string;
  /** one of the samples shipped with the app */
  sample: boolean;
}

/** One item of a dataset: its content and the answers it should get. */
export interface StoredItem {
  position: number;
  id: string;
  state: unknown;
  expected: Record<string, unknown>;
}

/** Expected answers of a dataset grouped by question and value: how many items give it, and one of them. */
export interface StoredExpectedGroup {
  name: string;
  /** the value; objects and arrays (boxes) are grouped by question alone, one of them given */
  value: unknown;
  items: number;
  example: string;
}

/** The datasets domain's storage: datasets and their items. */
export interface DatasetStorage {
  /** Drops datasets whose import never finished (a process killed while importing). */
  dropUnfinished(): Promise<void>;
  /** Ready datasets, newest first. */
  list(): Promise<StoredDataset[]>;
  /** A ready dataset. */
  get(id: string): Promise<StoredDataset | undefined>;
  /** Starts an import: the dataset is not listed until `finishImport`. */
  beginImport(dataset: { id: string; name: string; created_at: string }): Promise<void>;
  /** Adds items to a dataset being imported, all in one transaction. */
  appendItems(datasetId: string, items: readonly StoredItem[]): Promise<void>;
  /** Makes an import ready with its item count. */
  finishImport(datasetId: string, items: number): Promise<void>;
  /** A ready dataset with its items, stored together or not at all. */
  create(dataset: StoredDataset, items: readonly StoredItem[]): Promise<void>;
  /**
   * Adds items after the dataset's last one, each id made unique among the dataset's as "id (2)",
   * "id (3)"…, with empty expected answers, and counts them, in one transaction; the ids given.
   */
  addItems(datasetId: string, items: readonly { id: string; state: unknown }[]): Promise<{ position: number; id: string }[]>;
  /** Removes a dataset and its items (and what other domains keep of it, by the database's cascades); whether there was one. */
  remove(id: string): Promise<boolean>;
  /** A page of items in order, with how many match; `search` matches the id or the content's text. */
  page(datasetId: string, page: { offset: number; limit: number; search?: string | undefined }): Promise<{ total: number; items: StoredItem[] }>;
  /** Up to `limit` items after position `after` (-1: from the first), in order. */
  itemsAfter(datasetId: string, after: number, limit: number): Promise<StoredItem[]>;
  item(datasetId: string, position: number): Promise<StoredItem | undefined>;
  /** Every item's position, id and expected answers, in order, without their content (one position only when given). */
  expectations(datasetId: string, position?: number): Promise<{ position: number; id: string; expected: Record<string, unknown> }[]>;
  /** Positions of the `n` items with the longest stored content, longest first (then by position). */
  largest(datasetId: string, n: number): Promise<number[]>;
  expectedGroups(datasetId: string): Promise<StoredExpectedGroup[]>;
  /** Replaces an item's expected answers; whether there was the item. */
  setExpected(datasetId: string, position: number, expected: Record<string, unknown>): Promise<boolean>;
  /** The first `chars` characters of an item's content as stored (JSON). */
  contentHead(datasetId: string, position: number, chars: number): Promise<string | undefined>;
  /** Ready datasets whose first item's content has an image in its first 200 characters as stored. */
  withImageFirst(): Promise<string[]>;
  /** Moves whenever items change, in any process; what was read before it moved must be read again. */
  changeToken(): number;
}

/**
 * The evaluations domain's four ports sit beside their parts: the run book's runs, the read side's
 * results, the sender's writes, leases and claims, and saved calibrations.
 */
