/** The run book's storage: evaluation runs as stored, without their results. */

/** An evaluation run as stored. */
export interface StoredEvalRun {
  id: string;
  name: string;
  dataset_id: string;
  /** the question set's identity (setKey) */
  set_key: string;
  request: unknown;
  variants: { model: string; label?: string | undefined }[];
  concurrency: number;
  budget_usd: number | null;
  status: 'running' | 'paused' | 'done' | 'cancelled' | 'budget' | 'failed';
  message: string | null;
  created_at: string;
  finished_at: string | null;
  /** calibrations applied, fixed at the start; null for runs from before they were recorded */
  calibrations: { variant: number; question: string; temperature: number }[] | null;
  baseline_id: string | null;
  /** what the estimate said at the start; null for runs from before */
  estimate: unknown;
}

/** Evaluation runs: added, read, listed, changed and removed (their results go with them). */
export interface EvalRunStorage {
  addRun(run: StoredEvalRun): Promise<void>;
  getRun(id: string): Promise<StoredEvalRun | undefined>;
  /** The newest `limit` runs, newest first; with `status`, only those. */
  listRuns(options: { limit: number; status?: StoredEvalRun['status'] }): Promise<StoredEvalRun[]>;
  /** Names of the runs over a dataset. */
  runNames(datasetId: string): Promise<string[]>;
  /** Changes some of a run's fields. */
  updateRun(id: string, patch: Partial<Pick<StoredEvalRun, 'status' | 'message' | 'finished_at' | 'budget_usd' | 'baseline_id'>>): Promise<void>;
  removeRun(id: string): Promise<boolean>;
}
