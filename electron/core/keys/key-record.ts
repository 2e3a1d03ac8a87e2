import { hash, randomBytes } from 'node:crypto';
import type { ApiKeyInfo, ApiKeyKind, ApiKeyLimits } from '../../../shared/schemas/inspector';
import type { ApiKeyRecord } from '../store/ports';

/** Keys look like `vd-<12 hex id>-<43 base64url secret>`; only a SHA-256 of the whole key is stored. */
export const KEY_PATTERN = /^vd-([0-9a-f]{12})-([A-Za-z0-9_-]{43})$/;

// One-shot hashing: no Hash object per request.
export const digest = (key: string): Buffer => hash('sha256', key, 'buffer');
/** Compared against when no key has the presented id, so an unknown id takes as long as a wrong secret. */
export const DUMMY_HASH = digest('vd-000000000000-not-a-key');

/** A verified key, as the routes know the caller. */
export interface VerifiedKey {
  id: string;
  kind: ApiKeyKind;
  /** What the audit log names a management key's changes by. */
  name: string;
}

/** A stored key as the inspector and the API show it, with its spend. */
export const toInfo = (row: ApiKeyRecord, spent: number): ApiKeyInfo => ({
  id: row.id,
  name: row.name,
  kind: row.kind,
  label: row.label,
  created_at: row.created_at,
  revoked_at: row.revoked_at,
  last_used_at: row.last_used_at,
  credit_limit: row.credit_limit,
  spent,
  rate_limit_rpm: row.rate_limit_rpm,
});

/** A new key: its secret (shown once) and the record stored for it (only the secret's hash). */
export function mintKey(name: string, kind: ApiKeyKind, limits: ApiKeyLimits, createdAt: string): { record: ApiKeyRecord; key: string } {
  const id = randomBytes(6).toString('hex');
  const key = `vd-${id}-${randomBytes(32).toString('base64url')}`;
  const record: ApiKeyRecord = {
    id,
    name,
    kind,
    hash: digest(key),
    label: `vd-${id}-…`,
    created_at: createdAt,
    revoked_at: null,
    last_used_at: null,
    credit_limit: limits.credit_limit,
    rate_limit_rpm: limits.rate_limit_rpm,
    spent: 0,
  };
  return { record, key };
}
