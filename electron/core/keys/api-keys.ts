import { timingSafeEqual } from 'node:crypto';
import type { ApiKeyInfo, ApiKeyKind, ApiKeyLimits } from '../../../shared/schemas/inspector';
import { isoTime, type Clock } from '../clock';
import { GatewayError } from '../errors';
import type { ApiKeyRecord, KeyStorage } from '../store/ports';
import { digest, DUMMY_HASH, KEY_PATTERN, mintKey, toInfo } from './key-record';

export type { VerifiedKey } from './key-record';
import type { VerifiedKey } from './key-record';

const round = (usd: number) => Number(usd.toFixed(6));

/**
 * The key directory: every API key, kept in memory for verification on every public request and
 * read again from the store whenever its change token moves (another process, such as
 * `keys revoke`, committed). Who is admitted (rate and credit) is the admission's (admission/);
 * what keys spent is the spend ledger's (spend-ledger.ts).
 */
export class ApiKeys {
  private cache = new Map<string, ApiKeyRecord>();
  private token = -1;
  private reading: Promise<void> | null = null;
  private readonly touched = new Map<string, number>();
  /** Keys that passed `verify` against the keys read last; saves hashing on every request. */
  private readonly verified = new Map<string, VerifiedKey>();
  private lookUps = { since: 0, count: 0 };
  private readonly lookingUp = new Map<string, Promise<ApiKeyRecord | undefined>>();

  private constructor(
    private readonly store: KeyStorage,
    private readonly clock: Clock,
    /** Told of a key revoked or re-limited here, so that whoever keeps limits elsewhere reads it again. */
    private readonly changed: (id: string) => Promise<void>,
  ) {}

  static async open(store: KeyStorage, clock: Clock, changed: (id: string) => Promise<void> = async () => {}): Promise<ApiKeys> {
    const keys = new ApiKeys(store, clock, changed);
    await keys.readKeys();
    return keys;
  }

  /** A key as last read (synchronous; for admission), or undefined. */
  row(id: string): ApiKeyRecord | undefined {
    return this.cache.get(id);
  }

  /** Reads every key again now (another instance changed one). */
  reload(): Promise<void> {
    return this.readKeys();
  }

  /** Reads every key again; what was verified against the keys before is verified again. */
  private async readKeys(): Promise<void> {
    const token = this.store.changeToken();
    const records = await this.store.all();
    this.cache = new Map(records.map((r) => [r.id, r]));
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

  async create(
    name: string,
    kind: ApiKeyKind,
    limits: ApiKeyLimits = { credit_limit: null, rate_limit_rpm: null },
  ): Promise<{ info: ApiKeyInfo; key: string }> {
    const made = mintKey(name, kind, limits, isoTime(this.clock));
    await this.store.add(made.record);
    return this.added(made);
  }

  /** Creates the key only when there is no key at all, in any process on the store (instances starting together make one); undefined when there was. */
  async createFirst(name: string, kind: ApiKeyKind): Promise<{ info: ApiKeyInfo; key: string } | undefined> {
    const made = mintKey(name, kind, { credit_limit: null, rate_limit_rpm: null }, isoTime(this.clock));
    return (await this.store.addFirst(made.record)) ? this.added(made) : undefined;
  }

  private added({ record, key }: { record: ApiKeyRecord; key: string }): { info: ApiKeyInfo; key: string } {
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

  /** Replaces a key's limits; every instance's next request on it reads the key again. */
  async updateLimits(id: string, limits: ApiKeyLimits): Promise<ApiKeyInfo> {
    const record = await this.store.setLimits(id, limits);
    if (!record) throw new GatewayError('not_found', `No API key with id "${id}"`);
    this.remember(record);
    await this.changed(id);
    return toInfo(record, round(record.spent));
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
    await this.changed(id);
    return toInfo(record, round(record.spent));
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
