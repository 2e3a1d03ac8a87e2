// The boxes domain's storage: verdicts, their history and image sizes. Implemented by store/sqlite and store/postgres; gathered into Storage by store/ports.ts.

/** An image added to Boxes before datasets kept images (the old review table). */
export interface StoredBoxItem {
  id: string;
  name: string;
  /** '' when listed without images */
  data_url: string;
  truth: unknown[];
  answer: unknown;
  answers: Record<string, unknown>;
  model: string | null;
  run_id: string | null;
  verdict: 'accepted' | 'rejected' | null;
  verdict_run_id: string | null;
  note: string;
  width: number | null;
  height: number | null;
  created_at: string;
}

/** A box verdict on one item of a dataset, for one model and question ('' the whole image). */
export interface StoredVerdict {
  item_id: string;
  question: string;
  /** '' when the model is not known */
  model: string;
  verdict: 'accepted' | 'rejected' | null;
  note: string;
  /** the boxes judged, by question, as written (JSON text, compared as text) */
  answers: string;
  /** the truth judged against, as written (JSON text); null before it was kept */
  truth: string | null;
  run_id: string | null;
  variant: number;
  /** when the answer judged was given (null: not known) */
  answered_at: string | null;
  updated_at: string;
}

/** A verdict replaced or cleared, with its note. */
export interface StoredVerdictEnd {
  question: string;
  verdict: 'accepted' | 'rejected';
  note: string;
  given_at: string;
  ended_at: string;
}

/** Works out an item's verdict rows of one model from those stored (and those whose model is not known): the rows to keep, the rows ended, and when. */
export type VerdictChange = (mine: StoredVerdict[], unknownModel: StoredVerdict[]) => { rows: StoredVerdict[]; ended: StoredVerdict[]; at: string };

/** The boxes domain's storage: images of the old review table, box verdicts and their history, image sizes. */
export interface BoxStorage {
  listItems(options: { images: boolean }): Promise<StoredBoxItem[]>;
  getItem(id: string): Promise<StoredBoxItem | undefined>;
  addItem(item: StoredBoxItem): Promise<void>;
  putItem(item: StoredBoxItem): Promise<void>;
  removeItem(id: string): Promise<void>;
  /** A dataset's verdicts, of these models, one item only when given; by item, then question, then model. */
  verdicts(datasetId: string, models: readonly string[], itemId?: string): Promise<StoredVerdict[]>;
  /** Every verdict of a dataset, by item, question and model (backups). */
  allVerdicts(datasetId: string): Promise<StoredVerdict[]>;
  /** The newest 20 verdicts of an item and model that were replaced or cleared, newest first. */
  history(datasetId: string, itemId: string, model: string): Promise<StoredVerdictEnd[]>;
  /**
   * Changes one item's verdicts of one model in one transaction: `change` gets that model's rows and
   * those of no known model ('') and returns the model's rows as they are to be, and the rows that
   * ended (kept in the history, when they had a verdict, as ended at `at`). A throw in it writes nothing.
   */
  changeVerdicts(datasetId: string, itemId: string, model: string, change: VerdictChange): Promise<void>;
  /** Adds verdicts as they are (from a backup or the old review table), replacing any on the same item, question and model. */
  putVerdicts(datasetId: string, verdicts: readonly StoredVerdict[]): Promise<void>;
  /** Every ended verdict of a dataset, oldest first (copies between stores). */
  allHistory(datasetId: string): Promise<(StoredVerdictEnd & { item_id: string; model: string })[]>;
  /** Adds ended verdicts in the order given, in one transaction. */
  putHistory(datasetId: string, rows: readonly (StoredVerdictEnd & { item_id: string; model: string })[]): Promise<void>;
  /** Image sizes by item id (nulls: the header could not be read). */
  imageSizes(datasetId: string): Promise<Map<string, { width: number | null; height: number | null }>>;
  keepImageSizes(datasetId: string, sizes: readonly { item_id: string; width: number | null; height: number | null }[]): Promise<void>;
}
