// The web UI's sign-in sessions. Implemented by store/sqlite and store/postgres; gathered into Storage by store/ports.ts.

/** A browser's sign-in with a management key: only a SHA-256 of its token is stored, never the token or the key. */
export interface StoredSession {
  tokenHash: Buffer;
  keyId: string;
  created_at: string;
  expires_at: string;
}

/** The sign-in sessions of the web UI, shared by every instance that shares the database. */
export interface SessionStorage {
  add(session: StoredSession): Promise<void>;
  /** The session with this token hash, expired or not (the caller judges); undefined when there is none. */
  get(tokenHash: Buffer): Promise<StoredSession | undefined>;
  /** Removes a session (signing out); whether there was one. */
  remove(tokenHash: Buffer): Promise<boolean>;
  /** Removes sessions that expired at or before `at` (ISO time); how many went. */
  removeExpired(at: string): Promise<number>;
}
