import { GatewayError } from '../../errors';
import { SharedAdmissionUnavailable, type ApiKeyRecord, type KeyStorage, type SharedAdmission } from '../../store/ports';
import type { ApiKeys } from '../api-keys';
import type { Admission, Reservation } from './admission';
import { creditRefused, rateLimited } from './refusals';

/**
 * The shared limits could not be reached for a key that has some. `checking`: while a request was
 * being admitted (the fallback may then admit it on this instance's share of its rate limit, when it
 * asks no credit), rather than while a lost charge was being made up for.
 */
export class SharedLimitsAway extends GatewayError {
  constructor(
    readonly row: ApiKeyRecord,
    readonly withCredit: boolean,
    readonly checking: boolean,
    where: string,
    cause: unknown,
  ) {
    super(
      'unavailable',
      `Key ${row.label} has limits shared by every instance, and ${where} did not answer; requests on keys with limits are refused until it does`,
      { cause },
    );
  }
}

/**
 * Limits shared by a team's instances on Redis: the rate limit and, given the most a request can
 * cost, the credit held for it, in one round trip (a key without limits asks nothing). 429 and 402 as
 * one process answers them; 503 when Redis does not answer: a request that needs a limit is never let
 * through unchecked.
 */
export class SharedKeyAdmission implements Admission {
  /** Each key's generation as Redis last said it (revocations and limit changes move it). */
  private readonly generations = new Map<string, number>();
  /** Keys whose settle did not reach Redis: their spend there is raised to the ledger's before their next request. */
  private readonly unsettled = new Set<string>();

  constructor(
    private readonly keys: ApiKeys,
    private readonly store: KeyStorage,
    readonly redis: SharedAdmission,
  ) {}

  get where(): string {
    return this.redis.where;
  }

  ping(): Promise<void> {
    return this.redis.ping();
  }

  /** Routes that admit at their decision are checked there, in the same round trip as the credit. */
  async onRequest(keyId: string, requestId: string, atDecision: boolean): Promise<void> {
    if (!atDecision) await this.check(keyId, requestId, null);
  }

  onDecision(): void {}

  admit(keyId: string, requestId: string, mostItCosts: () => number): Promise<Reservation | null> {
    return this.check(keyId, requestId, mostItCosts);
  }

  settle(keyId: string, reservation: Reservation | null, usd: number): void {
    if (reservation?.shared === undefined) return;
    void this.redis.settle(keyId, reservation.shared, Math.max(0, usd), reservation.usd === 0).then((arrived) => {
      // Lost on the way (Redis away): the ledger has the charge; Redis gets it before the key's next admission.
      if (!arrived) this.unsettled.add(keyId);
    });
  }

  /** The rate limit, and with `mostItCosts` the credit; null when nothing is held here. */
  async check(keyId: string, requestId: string, mostItCosts: (() => number) | null): Promise<Reservation | null> {
    const first = this.keys.row(keyId);
    if (!first || (first.rate_limit_rpm === null && (mostItCosts === null || first.credit_limit === null))) return null;
    if (this.unsettled.has(keyId)) await this.makeUpLostCharge(first);
    let worst: number | null = null;
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const row = this.keys.row(keyId);
      if (!row || row.revoked_at) throw new GatewayError('unauthorized', 'Invalid or revoked API key');
      const withCredit = mostItCosts !== null && row.credit_limit !== null;
      if (withCredit && worst === null) worst = mostItCosts();
      let answer;
      try {
        answer = await this.redis.admit({
          keyId,
          generation: this.generations.get(keyId) ?? 0,
          rateLimitRpm: row.rate_limit_rpm,
          creditLimit: withCredit ? row.credit_limit : null,
          worst: withCredit ? (worst ?? 0) : 0,
          requestId,
        });
      } catch (error) {
        if (!(error instanceof SharedAdmissionUnavailable)) throw error;
        throw new SharedLimitsAway(row, withCredit, true, this.redis.where, error);
      }
      if (answer.admitted) return withCredit ? { keyId, usd: worst ?? 0, shared: requestId } : null;
      if (answer.reason === 'rate') throw rateLimited(row.label, row.rate_limit_rpm!, answer.retryAfterSeconds);
      if (answer.reason === 'credit') throw creditRefused(row.label, row.credit_limit!, { spent: answer.spent, held: answer.held, requestMaxCost: worst ?? 0 });
      if (answer.reason === 'changed') {
        // Revoked or its limits changed, through another instance: read the keys again, then ask again.
        await this.keys.reload();
        this.generations.set(keyId, answer.generation);
        continue;
      }
      // The shared state lost the key's spend (restarted, evicted, or never had it): the database's, then ask again.
      const stored = (await this.store.all()).find((k) => k.id === keyId);
      await this.redis.seedSpend(keyId, stored?.spent ?? 0).catch(() => undefined);
    }
    throw new GatewayError('unavailable', `Key ${this.keys.row(keyId)?.label ?? 'the key'} could not be admitted: the shared limits kept changing; try again`);
  }

  /** A charge of this key's that Redis did not take: its spend there is raised to the ledger's first. */
  private async makeUpLostCharge(row: ApiKeyRecord): Promise<void> {
    const stored = await this.store.get(row.id);
    try {
      await this.redis.seedSpend(row.id, stored?.spent ?? 0);
      this.unsettled.delete(row.id);
    } catch (error) {
      // Redis still away: refused at once, not after a second command's timeout.
      if (!(error instanceof SharedAdmissionUnavailable)) throw error;
      throw new SharedLimitsAway(row, false, false, this.redis.where, error);
    }
  }
}
