import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { statSync } from 'node:fs';
import type { ApiKeyInfo, ApiKeyKind } from '../../../shared/schemas/inspector';
import { isoTime, type Clock } from '../clock';
import { GatewayError } from '../errors';
import type { Store } from '../store/database';

/** Keys look like `vd-<12 hex id>-<43 base64url secret>`; only a SHA-256 of the whole key is stored. */
const KEY_PATTERN = /^vd-([0-9a-f]{12})-([A-Za-z0-9_-]{43})$/;

interface ApiKeyRow {
  id: string;
  name: string;
  kind: ApiKeyKind;
  hash: Uint8Array;
  label: string;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}

const digest = (key: string): Buffer => createHash('sha256').update(key, 'utf8').digest();
const DUMMY_HASH = digest('vd-000000000000-not-a-key');

const toInfo = (row: ApiKeyRow): ApiKeyInfo => ({
  id: row.id,
  name: row.name,
  kind: row.kind,
  label: row.label,
  created_at: row.created_at,
  revoked_at: row.revoked_at,
  last_used_at: row.last_used_at,
});

export interface VerifiedKey {
  id: string;
  kind: ApiKeyKind;
}

/**
 * API keys. Verification runs on every public request, so rows are kept in memory and reloaded
 * whenever the database file changes (another process, such as `keys revoke`, may write it).
 */
export class ApiKeys {
  private cache: Map<string, ApiKeyRow> | null = null;
  private cacheStamp = '';
  private checkedAt = 0;
  private readonly touched = new Map<string, number>();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  private rows(): Map<string, ApiKeyRow> {
    // The file is looked at most every half second: a key revoked by another process stops working within that.
    const now = this.clock.now();
    if (this.cache && now - this.checkedAt < 500 && now >= this.checkedAt) return this.cache;
    this.checkedAt = now;
    const stat = statSync(this.store.path, { throwIfNoEntry: false });
    const stamp = stat ? `${stat.mtimeMs}:${stat.size}` : '';
    if (!this.cache || stamp !== this.cacheStamp) {
      this.cache = new Map(this.store.all<ApiKeyRow>('SELECT * FROM api_keys').map((r) => [r.id, r]));
      this.cacheStamp = stamp;
    }
    return this.cache;
  }

  create(name: string, kind: ApiKeyKind): { info: ApiKeyInfo; key: string } {
    const id = randomBytes(6).toString('hex');
    const key = `vd-${id}-${randomBytes(32).toString('base64url')}`;
    const row: ApiKeyRow = {
      id,
      name,
      kind,
      hash: digest(key),
      label: `vd-${id}-…`,
      created_at: isoTime(this.clock),
      revoked_at: null,
      last_used_at: null,
    };
    this.store.run(
      'INSERT INTO api_keys (id, name, kind, hash, label, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      [row.id, row.name, row.kind, row.hash, row.label, row.created_at],
    );
    this.cache = null;
    return { info: toInfo(row), key };
  }

  list(): ApiKeyInfo[] {
    return this.store.all<ApiKeyRow>('SELECT * FROM api_keys ORDER BY created_at, id').map(toInfo);
  }

  count(): number {
    return this.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM api_keys')?.n ?? 0;
  }

  revoke(id: string): ApiKeyInfo {
    const row = this.store.get<ApiKeyRow>('SELECT * FROM api_keys WHERE id = ?', [id]);
    if (!row) throw new GatewayError('not_found', `No API key with id "${id}"`);
    if (!row.revoked_at) {
      row.revoked_at = isoTime(this.clock);
      this.store.run('UPDATE api_keys SET revoked_at = ? WHERE id = ?', [row.revoked_at, id]);
      this.cache = null;
    }
    return toInfo(row);
  }

  /** The key's identity when it is known and not revoked; compared in constant time. */
  verify(presented: string): VerifiedKey | undefined {
    const match = KEY_PATTERN.exec(presented);
    const row = match ? this.rows().get(match[1]!) : undefined;
    const expected = row ? Buffer.from(row.hash) : DUMMY_HASH;
    const equal = timingSafeEqual(digest(presented), expected);
    if (!row || !equal || row.revoked_at) return undefined;
    return { id: row.id, kind: row.kind };
  }

  /** Usage stamp, written at most once a minute per key so the hot path does not write each call. */
  touch(id: string): void {
    const now = this.clock.now();
    const last = this.touched.get(id);
    if (last !== undefined && now - last < 60_000) return;
    this.touched.set(id, now);
    this.store.later('UPDATE api_keys SET last_used_at = ? WHERE id = ?', [new Date(now).toISOString(), id]);
  }
}
