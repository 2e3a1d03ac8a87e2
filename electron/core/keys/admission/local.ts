import type { Clock } from '../../clock';
import type { KeyStorage } from '../../store/ports';
import type { ApiKeys } from '../api-keys';
import type { SpendLedger } from '../spend-ledger';
import type { Admission, Reservation } from './admission';
import { creditRefused, rateLimited } from './refusals';

const MINUTE = 60_000;

/**
 * Limits kept by this process, the one that serves requests on its data: a key's rate limit over a
 * sliding minute (each request's start also in the store, so the window survives a restart), and
 * its credit, each request holding the most it can cost from admission until it is charged.
 */
export class LocalAdmission implements Admission {
  readonly where = null;
  /** Start times of each rate-limited key's requests in the last minute, oldest first. */
  private readonly recent = new Map<string, number[]>();
  private prunedAt = 0;
  /** USD reserved per key by requests in flight. */
  private readonly reservedByKey = new Map<string, number>();

  private constructor(
    private readonly keys: ApiKeys,
    private readonly ledger: SpendLedger,
    private readonly store: KeyStorage,
    private readonly clock: Clock,
  ) {}

  /** Opens with the rate window of the last minute as the store kept it. */
  static async open(keys: ApiKeys, ledger: SpendLedger, store: KeyStorage, clock: Clock): Promise<LocalAdmission> {
    const admission = new LocalAdmission(keys, ledger, store, clock);
    for (const { keyId, at } of await store.requestsSince(clock.now() - MINUTE)) {
      const times = admission.recent.get(keyId) ?? [];
      times.push(at);
      admission.recent.set(keyId, times);
    }
    return admission;
  }

  /** Rate limit (requests per minute, sliding window): 429 with Retry-After when over. */
  onRequest(keyId: string): void {
    const row = this.keys.row(keyId);
    if (!row?.rate_limit_rpm) return;
    const now = this.clock.now();
    const times = this.recent.get(keyId) ?? [];
    while (times.length > 0 && now - times[0]! >= MINUTE) times.shift();
    if (times.length >= row.rate_limit_rpm) throw rateLimited(row.label, row.rate_limit_rpm, Math.max(1, Math.ceil((times[0]! + MINUTE - now) / 1000)));
    times.push(now);
    this.recent.set(keyId, times);
    // Committed with the next group commit, so before this request's answer leaves.
    this.store.noteRequest({ keyId, at: now });
    if (now - this.prunedAt >= MINUTE) {
      this.prunedAt = now;
      this.store.forgetRequests(now - MINUTE);
    }
  }

  /** Credit, before anything is known of the request: 402 once the key has spent its limit. */
  onDecision(keyId: string): void {
    const row = this.keys.row(keyId);
    if (row?.credit_limit === null || row?.credit_limit === undefined) return;
    const spent = this.ledger.spent(keyId);
    if (spent >= row.credit_limit) throw creditRefused(row.label, row.credit_limit, { spent });
  }

  /**
   * Credit at admission: holds the most the request can cost (worked out only for a key with a
   * limit) until it is settled; 402 when the key's spend, what its requests in flight hold and this
   * would pass its limit.
   */
  admit(keyId: string, _requestId: string, mostItCosts: () => number): Reservation | null {
    const row = this.keys.row(keyId);
    if (row?.credit_limit === null || row?.credit_limit === undefined) return null;
    const maxCost = mostItCosts();
    const spent = this.ledger.spent(keyId);
    const held = this.reservedByKey.get(keyId) ?? 0;
    if (spent + held + maxCost > row.credit_limit) throw creditRefused(row.label, row.credit_limit, { spent, held, requestMaxCost: maxCost });
    this.reservedByKey.set(keyId, held + maxCost);
    return { keyId, usd: maxCost };
  }

  settle(_keyId: string, reservation: Reservation | null): void {
    if (!reservation) return;
    const left = (this.reservedByKey.get(reservation.keyId) ?? 0) - reservation.usd;
    // Sums of floating-point reservations drift a little; a key with nothing in flight holds nothing.
    if (left > 1e-12) this.reservedByKey.set(reservation.keyId, left);
    else this.reservedByKey.delete(reservation.keyId);
  }

  async ping(): Promise<void> {}
}
