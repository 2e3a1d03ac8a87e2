import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ApiKeyInfo, ApiKeyKind, ApiKeyLimits } from '../../../shared/schemas/inspector';
import { isoTime, type Clock } from '../clock';
import { GatewayError } from '../errors';
import { SharedAdmissionUnavailable, type ApiKeyRecord, type KeyStorage, type SharedAdmission } from '../store/ports';

/** Keys look like `vd-<12 hex id>-<43 base64url secret>`; only a SHA-256 of the whole key is stored. */
const KEY_PATTERN = /^vd-([0-9a-f]{12})-([A-Za-z0-9_-]{43})$/;

// One-shot hashing: no Hash object per request.
const digest = (key: string): Buffer => hash('sha256', key, 'buffer');
const DUMMY_HASH = digest('vd-000000000000-not-a-key');

const toInfo = (row: ApiKeyRecord, spent: number): ApiKeyInfo => ({
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
  /** What the audit log names a management key's changes by. */
  name: string;
}

const MINUTE = 60_000;
const labelOf = (row: ApiKeyRecord | undefined) => row?.label ?? 'the key';
const round = (usd: number) => Number(usd.toFixed(6));

/** Credit held for a request in flight, from admission until its real cost is charged. */
export interface Reservation {
  readonly keyId: string;
  readonly usd: number;
  /** Held by the team's shared admission under this request id (settled there), not in this process. */
  readonly shared?: string;
}

/**
 * API keys. Verification runs on every public request, so keys are kept in memory and read again
 * from the store whenever its change token moves (another process, such as `keys revoke`, committed).
 *
 * Spend: a key's spend is written before each answer leaves (a group commit shared by the requests
 * answered in the same turn of the event loop), so a crash loses no acknowledged charge.
 * Credit: each request reserves the most it can cost at admission and is refused (402) when spend,
 * the reservations of requests in flight and its own would pass the limit; the reservation is
 * replaced by the real cost when it ends. This process is the only one that serves requests on its
 * data; the `keys` command beside it does not charge.
 */
export class ApiKeys {
  private cache = new Map<string, ApiKeyRecord>();
  private token = -1;
  private reading: Promise<void> | null = null;
  private readonly touched = new Map<string, number>();
  /** Keys that passed `verify` against the keys read last; saves hashing on every request. */
  private readonly verified = new Map<string, VerifiedKey>();
  /** USD spent per key: read at open, then kept here (each charge is written through to the store). */
  private readonly spentByKey = new Map<string, number>();
  /** USD reserved per key by requests in flight. */
  private readonly reservedByKey = new Map<string, number>();
  /** Start times of each rate-limited key's requests in the last minute, oldest first (also in the store). */
  private readonly recent = new Map<string, number[]>();
  private prunedAt = 0;

  /** Each key's generation as the shared admission last said it (revocations and limit changes move it). */
  private readonly generations = new Map<string, number>();
  /**
   * With the shared admission away, rate limits may be kept here instead, each divided by the live
   * instances (`--redis-fallback local`); credit never is. Null: refuse (the default).
   */
  private fallback: { liveInstances: () => number; recent: Map<string, number[]> } | null = null;
  private lookUps = { since: 0, count: 0 };
  private readonly lookingUp = new Map<string, Promise<ApiKeyRecord | undefined>>();
  /** Keys whose settle did not reach the shared admission: their spend there is raised to the ledger's before their next request. */
  private readonly unsettled = new Set<string>();

  private constructor(
    private readonly store: KeyStorage,
    private readonly clock: Clock,
    /** A team's admission shared by every instance; without it, this process's own counts. */
    readonly shared: SharedAdmission | null,
  ) {}

  static async open(store: KeyStorage, clock: Clock, shared: SharedAdmission | null = null): Promise<ApiKeys> {
    const keys = new ApiKeys(store, clock, shared);
    await keys.readKeys();
    for (const { keyId, at } of await store.requestsSince(clock.now() - MINUTE)) {
      const times = keys.recent.get(keyId) ?? [];
      times.push(at);
      keys.recent.set(keyId, times);
    }
    return keys;
  }

  /** Reads every key again; what was verified against the keys before is verified again. */
  private async readKeys(): Promise<void> {
    const token = this.store.changeToken();
    const records = await this.store.all();
    this.cache = new Map(records.map((r) => [r.id, r]));
    for (const r of records) if (!this.spentByKey.has(r.id)) this.spentByKey.set(r.id, r.spent);
    this.verified.clear();
    this.token = token;
  }

  /** The keys, read again first when the store says they changed (one read shared by concurrent callers). */
  private async current(): Promise<Map<string, ApiKeyRecord>> {
    if (this.store.changeToken() !== this.token) {
      this.reading ??= this.readKeys().finally(() => (this.reading = null));
      await this.reading;
    }
    return this.cache;
  }

  private remember(record: ApiKeyRecord): void {
    this.cache.set(record.id, record);
    this.verified.clear();
  }

  private spent(id: string): number {
    return this.spentByKey.get(id) ?? 0;
  }

  /**
   * Charges a finished request its real cost in place of its reservation. Resolves once the charge
   * is committed: the answer (or error) must not leave before.
   */
  charge(id: string, usd: number, reservation: Reservation | null, requestId?: string): Promise<void> {
    if (reservation?.shared !== undefined)
      void this.shared?.settle(id, reservation.shared, Math.max(0, usd), reservation.usd === 0).then((arrived) => {
        // Lost on the way (Redis away): the ledger has the charge; Redis gets it before the key's next admission.
        if (!arrived) this.unsettled.add(id);
      });
    else if (reservation) this.release(reservation);
    if (!(usd > 0)) return Promise.resolve();
    this.spentByKey.set(id, this.spent(id) + usd);
    return this.store.charge(id, usd, requestId);
  }

  private release(reservation: Reservation): void {
    const left = (this.reservedByKey.get(reservation.keyId) ?? 0) - reservation.usd;
    // Sums of floating-point reservations drift a little; a key with nothing in flight holds nothing.
    if (left > 1e-12) this.reservedByKey.set(reservation.keyId, left);
    else this.reservedByKey.delete(reservation.keyId);
  }

  /** Rate limit (requests per minute, sliding window): 429 with Retry-After when over. Shared: checked at admission instead. */
  admitRate(id: string): void {
    const row = this.cache.get(id);
    if (!row?.rate_limit_rpm || this.shared) return;
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
    this.store.noteRequest({ keyId: id, at: now });
    if (now - this.prunedAt >= MINUTE) {
      this.prunedAt = now;
      this.store.forgetRequests(now - MINUTE);
    }
  }

  private sharedAway(id: string, where: string, cause: unknown): GatewayError {
    return new GatewayError(
      'unavailable',
      `Key ${labelOf(this.cache.get(id))} has limits shared by every instance, and ${where} did not answer; requests on keys with limits are refused until it does`,
      { cause },
    );
  }

  /** Keeps rate limits here while the shared admission is away, each this instance's share of it (never credit). */
  fallBackToOwnShare(liveInstances: () => number): void {
    this.fallback = { liveInstances, recent: new Map() };
  }

  /** This instance's share of the key's rate limit, over a sliding minute here: the limit divided by the live instances, at least one. */
  private admitOwnShare(row: ApiKeyRecord, fallback: { liveInstances: () => number; recent: Map<string, number[]> }): void {
    const share = Math.max(1, Math.floor(row.rate_limit_rpm! / Math.max(1, fallback.liveInstances())));
    const now = this.clock.now();
    const times = fallback.recent.get(row.id) ?? [];
    while (times.length > 0 && now - times[0]! >= MINUTE) times.shift();
    if (times.length >= share) {
      const wait = Math.max(1, Math.ceil((times[0]! + MINUTE - now) / 1000));
      throw new GatewayError(
        'rate_limited',
        `Key ${row.label} is limited to ${row.rate_limit_rpm} requests per minute; while the shared limits cannot be reached this instance admits its share, ${share}; try again in ${wait} s`,
        { headers: { 'Retry-After': String(wait) }, metadata: { limit_rpm: row.rate_limit_rpm, instance_share_rpm: share, retry_after_seconds: wait } },
      );
    }
    times.push(now);
    fallback.recent.set(row.id, times);
  }

  /** Whether a request on this key is admitted by the team's shared admission: there is one, and the key has a limit it checks. */
  sharedFor(id: string, withCredit: boolean): boolean {
    const row = this.cache.get(id);
    return this.shared !== null && row !== undefined && (row.rate_limit_rpm !== null || (withCredit && row.credit_limit !== null));
  }

  /**
   * Admission by the team's shared admission, in one round trip: the rate limit and, given the most
   * the request can cost, the credit held for it (a key without limits asks nothing). 429 and 402 as
   * one process answers them; 503 when the shared admission does not answer: a request that needs a
   * limit is never let through unchecked. Without a shared admission, this process's own reservation.
   */
  async admitShared(id: string, requestId: string, mostItCosts: (() => number) | null): Promise<Reservation | null> {
    if (!this.shared) return mostItCosts ? this.reserve(id, mostItCosts) : null;
    if (!this.sharedFor(id, mostItCosts !== null)) return null;
    const shared = this.shared;
    // A charge of this key's that Redis did not take: its spend there is raised to the ledger's first.
    if (this.unsettled.has(id)) {
      const stored = await this.store.get(id);
      try {
        await shared.seedSpend(id, stored?.spent ?? 0);
        this.unsettled.delete(id);
      } catch (error) {
        // Redis still away: refused at once, not after a second command's timeout.
        if (!(error instanceof SharedAdmissionUnavailable)) throw error;
        throw this.sharedAway(id, shared.where, error);
      }
    }
    let worst: number | null = null;
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const row = this.cache.get(id);
      if (!row || row.revoked_at) throw new GatewayError('unauthorized', 'Invalid or revoked API key');
      const withCredit = mostItCosts !== null && row.credit_limit !== null;
      if (withCredit && worst === null) worst = mostItCosts();
      let answer;
      try {
        answer = await shared.admit({
          keyId: id,
          generation: this.generations.get(id) ?? 0,
          rateLimitRpm: row.rate_limit_rpm,
          creditLimit: withCredit ? row.credit_limit : null,
          worst: withCredit ? (worst ?? 0) : 0,
          requestId,
        });
      } catch (error) {
        if (!(error instanceof SharedAdmissionUnavailable)) throw error;
        if (this.fallback && !withCredit && row.rate_limit_rpm !== null) {
          this.admitOwnShare(row, this.fallback);
          return null;
        }
        throw this.sharedAway(id, shared.where, error);
      }
      if (answer.admitted) return withCredit ? { keyId: id, usd: worst ?? 0, shared: requestId } : null;
      if (answer.reason === 'rate') {
        const wait = answer.retryAfterSeconds;
        throw new GatewayError('rate_limited', `Key ${row.label} is limited to ${row.rate_limit_rpm} requests per minute; try again in ${wait} s`, {
          headers: { 'Retry-After': String(wait) },
          metadata: { limit_rpm: row.rate_limit_rpm, retry_after_seconds: wait },
        });
      }
      if (answer.reason === 'credit') {
        const limit = row.credit_limit!;
        throw new GatewayError(
          'payment_required',
          `Key ${row.label} has $${round(Math.max(0, limit - answer.spent - answer.held))} of its $${limit} credit free, and this request may cost up to $${round(worst ?? 0)}; raise its limit or use another key`,
          { metadata: { credit_limit: limit, spent: round(answer.spent), reserved: round(answer.held), request_max_cost: round(worst ?? 0) } },
        );
      }
      if (answer.reason === 'changed') {
        // Revoked or its limits changed, through another instance: read the keys again, then ask again.
        await this.readKeys();
        this.generations.set(id, answer.generation);
        continue;
      }
      // The shared state lost the key's spend (restarted, evicted, or never had it): the database's, then ask again.
      const stored = (await this.store.all()).find((k) => k.id === id);
      await shared.seedSpend(id, stored?.spent ?? 0).catch(() => undefined);
    }
    throw new GatewayError('unavailable', `Key ${labelOf(this.cache.get(id))} could not be admitted: the shared limits kept changing; try again`);
  }

  /** Credit, before anything is known of the request: 402 once the key has spent its limit. */
  admitCredit(id: string): void {
    const row = this.cache.get(id);
    if (row?.credit_limit === null || row?.credit_limit === undefined || this.shared) return;
    const spent = this.spent(id);
    if (spent >= row.credit_limit) {
      throw new GatewayError(
        'payment_required',
        `Key ${row.label} has spent $${round(spent)} of its $${row.credit_limit} credit; raise its limit or use another key`,
        {
          metadata: { credit_limit: row.credit_limit, spent: round(spent) },
        },
      );
    }
  }

  /**
   * Credit at admission: holds the most the request can cost (worked out only for a key with a
   * limit) until it is charged; 402 when the key's spend, what its requests in flight hold and this
   * would pass its limit.
   */
  reserve(id: string, mostItCosts: () => number): Reservation | null {
    const row = this.cache.get(id);
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

  async create(
    name: string,
    kind: ApiKeyKind,
    limits: ApiKeyLimits = { credit_limit: null, rate_limit_rpm: null },
  ): Promise<{ info: ApiKeyInfo; key: string }> {
    const made = this.made(name, kind, limits);
    await this.store.add(made.record);
    return this.added(made);
  }

  /** Creates the key only when there is no key at all, in any process on the store (instances starting together make one); undefined when there was. */
  async createFirst(name: string, kind: ApiKeyKind): Promise<{ info: ApiKeyInfo; key: string } | undefined> {
    const made = this.made(name, kind, { credit_limit: null, rate_limit_rpm: null });
    return (await this.store.addFirst(made.record)) ? this.added(made) : undefined;
  }

  private made(name: string, kind: ApiKeyKind, limits: ApiKeyLimits): { record: ApiKeyRecord; key: string } {
    const id = randomBytes(6).toString('hex');
    const key = `vd-${id}-${randomBytes(32).toString('base64url')}`;
    const record: ApiKeyRecord = {
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
      spent: 0,
    };
    return { record, key };
  }

  private added({ record, key }: { record: ApiKeyRecord; key: string }): { info: ApiKeyInfo; key: string } {
    this.spentByKey.set(record.id, 0);
    this.remember(record);
    return { info: toInfo(record, 0), key };
  }

  async list(): Promise<ApiKeyInfo[]> {
    // The stored spend: every charge is committed before its answer leaves, and on a team's database it counts every instance's.
    return (await this.store.all()).map((r) => toInfo(r, round(r.spent)));
  }

  async count(): Promise<number> {
    return (await this.store.all()).length;
  }

  /** A key as the store has it now, whichever process changed it last (not the copy kept for verification). */
  async stored(id: string): Promise<ApiKeyInfo | undefined> {
    const record = await this.store.get(id);
    return record ? toInfo(record, round(record.spent)) : undefined;
  }

  /**
   * What a key spent in the current UTC day, week (from Monday) and month, from the per-day spend
   * the store keeps with every charge; and its whole spend. Undefined for a key that is not there.
   */
  async spendPeriods(id: string): Promise<{ info: ApiKeyInfo; day: number; week: number; month: number } | undefined> {
    const info = await this.stored(id);
    if (!info) return undefined;
    const now = new Date(this.clock.now());
    const day = now.toISOString().slice(0, 10);
    const monday = new Date(now.getTime() - ((now.getUTCDay() + 6) % 7) * 86_400_000).toISOString().slice(0, 10);
    const month = `${day.slice(0, 8)}01`;
    const days = await this.store.spendByDay(id, monday < month ? monday : month);
    const since = (from: string) => round([...days].reduce((sum, [d, usd]) => (d >= from ? sum + usd : sum), 0));
    return { info, day: since(day), week: since(monday), month: since(month) };
  }

  /** Replaces a key's limits; every instance's next request on it reads the key again. */
  async updateLimits(id: string, limits: ApiKeyLimits): Promise<ApiKeyInfo> {
    const record = await this.store.setLimits(id, limits);
    if (!record) throw new GatewayError('not_found', `No API key with id "${id}"`);
    this.remember(record);
    await this.shared?.bumpGeneration(id).catch(() => undefined);
    return toInfo(record, round(this.spentByKey.get(id) ?? record.spent));
  }

  /**
   * What a presented key is, for signing in: unknown (not a key of ours, or the wrong secret), or the
   * key with whether it is revoked, read from the store (another instance's revocation counts at once).
   */
  async identify(presented: string): Promise<{ state: 'unknown' } | { state: 'live' | 'revoked'; info: ApiKeyInfo }> {
    const match = KEY_PATTERN.exec(presented);
    const record = match ? await this.store.get(match[1]!) : undefined;
    const equal = timingSafeEqual(digest(presented), record ? Buffer.from(record.hash) : DUMMY_HASH);
    if (!record || !equal) return { state: 'unknown' };
    return { state: record.revoked_at ? 'revoked' : 'live', info: toInfo(record, round(record.spent)) };
  }

  async revoke(id: string): Promise<ApiKeyInfo> {
    const record = await this.store.revoke(id, isoTime(this.clock));
    if (!record) throw new GatewayError('not_found', `No API key with id "${id}"`);
    this.remember(record);
    // Every instance's next request on it reads the key again (the database's notice may come later).
    await this.shared?.bumpGeneration(id).catch(() => undefined);
    return toInfo(record, round(this.spentByKey.get(id) ?? record.spent));
  }

  /** The key's identity when it is known and not revoked; compared in constant time. */
  async verify(presented: string): Promise<VerifiedKey | undefined> {
    // Keys created or revoked by another process (`keys create`, `keys revoke`) are seen here at once.
    const rows = await this.current();
    const known = this.verified.get(presented);
    if (known) return known;
    const match = KEY_PATTERN.exec(presented);
    const row = match ? (rows.get(match[1]!) ?? (await this.lookUp(match[1]!))) : undefined;
    const expected = row ? Buffer.from(row.hash) : DUMMY_HASH;
    const equal = timingSafeEqual(digest(presented), expected);
    if (!row || !equal || row.revoked_at) return undefined;
    const key: VerifiedKey = { id: row.id, kind: row.kind, name: row.name };
    // Only keys that passed are remembered (so unknown ones cannot fill this), and only a few.
    if (this.verified.size >= 1_000) this.verified.clear();
    this.verified.set(presented, key);
    return key;
  }

  /**
   * A key id this process does not know: perhaps created a moment ago through another instance,
   * its notice not here yet. Read from the store, at most 20 a second (ids that name nothing cost
   * the database no more than that).
   */
  private lookUp(id: string): Promise<ApiKeyRecord | undefined> {
    // Requests naming the same id at once share one read.
    const pending = this.lookingUp.get(id);
    if (pending) return pending;
    const now = this.clock.now();
    if (now - this.lookUps.since >= 1_000) this.lookUps = { since: now, count: 0 };
    if (this.lookUps.count >= 20) return Promise.resolve(undefined);
    this.lookUps.count += 1;
    const read = this.store
      .get(id)
      .then((row) => {
        if (row) this.remember(row);
        return row;
      })
      .finally(() => this.lookingUp.delete(id));
    this.lookingUp.set(id, read);
    return read;
  }

  /** Usage stamp, written at most once a minute per key so the hot path does not write each call. */
  touch(id: string): void {
    const now = this.clock.now();
    const last = this.touched.get(id);
    if (last !== undefined && now - last < 60_000) return;
    this.touched.set(id, now);
    this.store.stampUsed(id, new Date(now).toISOString());
  }
}
