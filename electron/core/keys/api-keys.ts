import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { statSync } from 'node:fs';
import type { ApiKeyInfo, ApiKeyKind, ApiKeyLimits } from '../../../shared/schemas/inspector';
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
  credit_limit: number | null;
  rate_limit_rpm: number | null;
}

// One-shot hashing: no Hash object per request.
const digest = (key: string): Buffer => hash('sha256', key, 'buffer');
const DUMMY_HASH = digest('vd-000000000000-not-a-key');

const toInfo = (row: ApiKeyRow, spent: number): ApiKeyInfo => ({
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

export interface VerifiedKey {
  id: string;
  kind: ApiKeyKind;
}

const MINUTE = 60_000;
const round = (usd: number) => Number(usd.toFixed(6));

/**
 * API keys. Verification runs on every public request, so rows are kept in memory and reloaded
 * whenever the database file changes (another process, such as `keys revoke`, may write it).
 */
export class ApiKeys {
  private cache: Map<string, ApiKeyRow> | null = null;
  private cacheStamp = '';
  private checkedAt = 0;
  private readonly touched = new Map<string, number>();
  /** Keys that passed `verify` against the rows read last; saves hashing on every request. */
  private readonly verified = new Map<string, VerifiedKey>();
  private verifiedFor: Map<string, ApiKeyRow> | null = null;
  /** USD spent per key: read at start (before the request log has anything new), then kept here. */
  private readonly spentByKey: Map<string, number>;
  /** Start times of each key's requests in the last minute, oldest first. */
  private readonly recent = new Map<string, number[]>();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    /** Spend in the request log that SQLite does not hold yet (a process that only reads the log). */
    private readonly unfoldedSpend: () => ReadonlyMap<string, number> = () => new Map(),
  ) {
    this.spentByKey = this.loadSpent();
  }

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

  private spent(id: string): number {
    return this.spentByKey.get(id) ?? 0;
  }

  private loadSpent(): Map<string, number> {
    this.store.flush();
    // Archived spend, the request log's (up to its checkpoint), and rows of the log's earlier home in SQLite.
    const rows = this.store.all<{ id: string; spent: number }>(
      "SELECT k.id, k.spent_archived + k.spent_logged + COALESCE((SELECT SUM(d.cost) FROM decisions d WHERE d.key_id = k.id AND d.origin = 'api'), 0) AS spent FROM api_keys k",
    );
    const unfolded = this.unfoldedSpend();
    return new Map(rows.map((r) => [r.id, r.spent + (unfolded.get(r.id) ?? 0)]));
  }

  /**
   * API requests logged in SQLite by earlier versions are kept for `days` like the request log;
   * what older ones cost is first added to their key's archived spend, so credit limits keep counting it.
   */
  archiveOlderThan(days: number): number {
    const cutoff = this.clock.now() - days * 24 * 3_600_000;
    return this.store.transaction(() => {
      this.store.run(
        "UPDATE api_keys SET spent_archived = spent_archived + COALESCE((SELECT SUM(d.cost) FROM decisions d WHERE d.key_id = api_keys.id AND d.origin = 'api' AND d.created_at < ?), 0)",
        [cutoff],
      );
      // The total is unchanged (cost moves from the rows to the archive), so the figures kept here stand.
      return this.store.run("DELETE FROM decisions WHERE origin = 'api' AND created_at < ?", [cutoff]).changes;
    });
  }

  /** Adds a request's cost to its key's spend as counted here (the request log makes it durable). */
  addSpend(id: string, usd: number): void {
    this.spentByKey.set(id, this.spent(id) + usd);
  }

  /** Rate limit (requests per minute, sliding window): 429 with Retry-After when over. */
  admitRate(id: string): void {
    const row = this.rows().get(id);
    if (!row?.rate_limit_rpm) return;
    const now = this.clock.now();
    const times = this.recent.get(id) ?? [];
    while (times.length > 0 && now - times[0]! >= MINUTE) times.shift();
    if (times.length >= row.rate_limit_rpm) {
      const wait = Math.max(1, Math.ceil((times[0]! + MINUTE - now) / 1000));
      throw new GatewayError('rate_limited', `Key ${row.label} is limited to ${row.rate_limit_rpm} requests per minute; try again in ${wait} s`, {
        headers: { 'Retry-After': String(wait) },
        metadata: { limit_rpm: row.rate_limit_rpm, retry_after_seconds: wait },
      });
    }
    times.push(now);
    this.recent.set(id, times);
  }

  /** Credit: 402 once the key has spent its limit. */
  admitCredit(id: string): void {
    const row = this.rows().get(id);
    if (row?.credit_limit === null || row?.credit_limit === undefined) return;
    const spent = this.spent(id);
    if (spent >= row.credit_limit) {
      throw new GatewayError('payment_required', `Key ${row.label} has spent $${round(spent)} of its $${row.credit_limit} credit; raise its limit or use another key`, {
        metadata: { credit_limit: row.credit_limit, spent: round(spent) },
      });
    }
  }

  create(name: string, kind: ApiKeyKind, limits: ApiKeyLimits = { credit_limit: null, rate_limit_rpm: null }): { info: ApiKeyInfo; key: string } {
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
      credit_limit: limits.credit_limit,
      rate_limit_rpm: limits.rate_limit_rpm,
    };
    this.store.run(
      'INSERT INTO api_keys (id, name, kind, hash, label, created_at, credit_limit, rate_limit_rpm) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      [row.id, row.name, row.kind, row.hash, row.label, row.created_at, row.credit_limit, row.rate_limit_rpm],
    );
    this.cache = null;
    return { info: toInfo(row, 0), key };
  }

  list(): ApiKeyInfo[] {
    return this.store.all<ApiKeyRow>('SELECT * FROM api_keys ORDER BY created_at, id').map((r) => toInfo(r, round(this.spent(r.id))));
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
    return toInfo(row, round(this.spent(id)));
  }

  /** The key's identity when it is known and not revoked; compared in constant time. */
  verify(presented: string): VerifiedKey | undefined {
    const rows = this.rows();
    if (rows !== this.verifiedFor) {
      // Keys were (re)read: a revocation or a new key must be seen, so what was verified is verified again.
      this.verified.clear();
      this.verifiedFor = rows;
    }
    const known = this.verified.get(presented);
    if (known) return known;
    const match = KEY_PATTERN.exec(presented);
    const row = match ? rows.get(match[1]!) : undefined;
    const expected = row ? Buffer.from(row.hash) : DUMMY_HASH;
    const equal = timingSafeEqual(digest(presented), expected);
    if (!row || !equal || row.revoked_at) return undefined;
    const key: VerifiedKey = { id: row.id, kind: row.kind };
    // Only keys that passed are remembered (so unknown ones cannot fill this), and only a few.
    if (this.verified.size >= 1_000) this.verified.clear();
    this.verified.set(presented, key);
    return key;
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
