import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
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

/** Credit held for a request in flight, from admission until its real cost is charged. */
export interface Reservation {
  readonly keyId: string;
  readonly usd: number;
}

/**
 * API keys. Verification runs on every public request, so rows are kept in memory and reloaded
 * whenever another process (such as `keys revoke`) commits to the database.
 *
 * Spend: `api_keys.spent` is written before each answer leaves (a group commit shared by the
 * requests answered in the same turn of the event loop), so a crash loses no acknowledged charge.
 * Credit: each request reserves the most it can cost at admission and is refused (402) when spend,
 * the reservations of requests in flight and its own would pass the limit; the reservation is
 * replaced by the real cost when it ends. This process is the only one that serves requests on its
 * data directory; the `keys` command beside it does not charge.
 */
export class ApiKeys {
  private cache: Map<string, ApiKeyRow> | null = null;
  private dataVersion = -1;
  private readonly touched = new Map<string, number>();
  /** Keys that passed `verify` against the rows read last; saves hashing on every request. */
  private readonly verified = new Map<string, VerifiedKey>();
  private verifiedFor: Map<string, ApiKeyRow> | null = null;
  /** USD spent per key: read at start, then kept here (each charge is written through to SQLite). */
  private readonly spentByKey: Map<string, number>;
  /** USD reserved per key by requests in flight. */
  private readonly reservedByKey = new Map<string, number>();
  /** Start times of each rate-limited key's requests in the last minute, oldest first (also in SQLite). */
  private readonly recent = new Map<string, number[]>();
  private prunedAt = 0;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {
    this.spentByKey = new Map(this.store.all<{ id: string; spent: number }>('SELECT id, spent FROM api_keys').map((r) => [r.id, r.spent]));
    for (const { key_id, at } of this.store.all<{ key_id: string; at: number }>('SELECT key_id, at FROM key_requests WHERE at > ? ORDER BY at', [this.clock.now() - MINUTE])) {
      const times = this.recent.get(key_id) ?? [];
      times.push(at);
      this.recent.set(key_id, times);
    }
  }

  private rows(): Map<string, ApiKeyRow> {
    // SQLite's data_version changes when another connection (such as `keys revoke`) commits; reading
    // it is one prepared pragma, so it is read on every look and a key revoked elsewhere stops at once.
    const version = this.store.dataVersion();
    if (!this.cache || version !== this.dataVersion) {
      this.cache = new Map(this.store.all<ApiKeyRow>('SELECT * FROM api_keys').map((r) => [r.id, r]));
      this.dataVersion = version;
    }
    return this.cache;
  }

  private spent(id: string): number {
    return this.spentByKey.get(id) ?? 0;
  }

  /** API requests logged in SQLite by earlier versions are kept for `days` like the request log (their cost is in `spent`). */
  archiveOlderThan(days: number): number {
    const cutoff = this.clock.now() - days * 24 * 3_600_000;
    return this.store.run("DELETE FROM decisions WHERE origin = 'api' AND created_at < ?", [cutoff]).changes;
  }

  /**
   * Charges a finished request its real cost in place of its reservation. Resolves once the charge
   * is committed: the answer (or error) must not leave before.
   */
  charge(id: string, usd: number, reservation: Reservation | null): Promise<void> {
    if (reservation) this.release(reservation);
    if (!(usd > 0)) return Promise.resolve();
    this.spentByKey.set(id, this.spent(id) + usd);
    return this.store.commit('UPDATE api_keys SET spent = spent + ? WHERE id = ?', [usd, id]);
  }

  private release(reservation: Reservation): void {
    const left = (this.reservedByKey.get(reservation.keyId) ?? 0) - reservation.usd;
    // Sums of floating-point reservations drift a little; a key with nothing in flight holds nothing.
    if (left > 1e-12) this.reservedByKey.set(reservation.keyId, left);
    else this.reservedByKey.delete(reservation.keyId);
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
    // Committed with the next group commit, so before this request's answer leaves.
    this.store.commitSoon('INSERT INTO key_requests (key_id, at) VALUES (?, ?)', [id, now]);
    if (now - this.prunedAt >= MINUTE) {
      this.prunedAt = now;
      this.store.commitSoon('DELETE FROM key_requests WHERE at <= ?', [now - MINUTE]);
    }
  }

  /** Credit, before anything is known of the request: 402 once the key has spent its limit. */
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

  /**
   * Credit at admission: holds the most the request can cost (worked out only for a key with a
   * limit) until it is charged; 402 when the key's spend, what its requests in flight hold and this
   * would pass its limit.
   */
  reserve(id: string, mostItCosts: () => number): Reservation | null {
    const row = this.rows().get(id);
    if (row?.credit_limit === null || row?.credit_limit === undefined) return null;
    const maxCost = mostItCosts();
    const spent = this.spent(id);
    const held = this.reservedByKey.get(id) ?? 0;
    if (spent + held + maxCost > row.credit_limit) {
      throw new GatewayError(
        'payment_required',
        `Key ${row.label} has $${round(Math.max(0, row.credit_limit - spent - held))} of its $${row.credit_limit} credit free, and this request may cost up to $${round(maxCost)}; raise its limit or use another key`,
        { metadata: { credit_limit: row.credit_limit, spent: round(spent), reserved: round(held), request_max_cost: round(maxCost) } },
      );
    }
    this.reservedByKey.set(id, held + maxCost);
    return { keyId: id, usd: maxCost };
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
    // Keys created or revoked by another process (`keys create`, `keys revoke`) are seen here at once.
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
