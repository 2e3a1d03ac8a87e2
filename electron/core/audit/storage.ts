import type { AuditActorKind, AuditEntry, AuditTargetKind } from '../../../shared/schemas/audit';

// The audit log's storage. Implemented by store/sqlite and store/postgres; gathered into Storage by store/ports.ts.

/** Which entries of the audit log to read, newest first. */
export interface AuditFilter {
  offset: number;
  limit: number;
  actorKind?: AuditActorKind | undefined;
  actorKeyId?: string | undefined;
  targetKind?: AuditTargetKind | undefined;
}

/** The audit domain's storage: an append-only log of who changed keys, limits, sets and datasets. */
export interface AuditStorage {
  /** Adds an entry; resolves once it is durable. Entries are never changed or removed. */
  append(entry: AuditEntry): Promise<void>;
  /** A page of the entries that match, newest first (by `at`, then the order they were added), and how many match in all. */
  list(filter: AuditFilter): Promise<{ total: number; entries: AuditEntry[] }>;
}
