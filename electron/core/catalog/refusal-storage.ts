// What endpoints refused at run time, learned by the catalog. Implemented by store/sqlite and store/postgres; gathered into Storage by store/ports.ts.

/** What an endpoint refused at run time (a parameter or feature), kept so later requests leave it out. */
export interface StoredRefusal {
  endpointId: string;
  parameter: string;
  message: string;
  learned_at: string;
}

/** The learned-capabilities domain's storage. */
export interface RefusalStorage {
  all(): Promise<StoredRefusal[]>;
  /** Stores a refusal, replacing one of the same endpoint and parameter. */
  put(refusal: StoredRefusal): Promise<void>;
  /** Forgets what an endpoint refused. */
  forget(endpointId: string): Promise<void>;
  /** Moves whenever refusals change in any process. */
  changeToken(): number;
}
