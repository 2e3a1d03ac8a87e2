/** What the keys' stores on both backends share: a key's values as written. */
import type { ApiKeyRecord } from './ports';

/** A key's values in the order of `INSERT INTO api_keys (id, name, kind, hash, label, created_at, revoked_at, last_used_at, credit_limit, rate_limit_rpm, spent)`. */
export const keyValues = (key: ApiKeyRecord): (string | number | Buffer | null)[] => [
  key.id,
  key.name,
  key.kind,
  key.hash,
  key.label,
  key.created_at,
  key.revoked_at,
  key.last_used_at,
  key.credit_limit,
  key.rate_limit_rpm,
  key.spent,
];
