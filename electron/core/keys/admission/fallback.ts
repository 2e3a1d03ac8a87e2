import type { ApiKeyRecord } from '../../store/ports';
import type { Admission, Reservation } from './admission';
import { rateLimited } from './refusals';
import { SharedLimitsAway, type SharedKeyAdmission } from './shared';

const MINUTE = 60_000;

/**
 * The shared admission, and while Redis is away (`--redis-fallback local`) a request on a key with
 * only a rate limit is admitted here on this instance's share of it: the limit divided by the live
 * instances, at least one. Credit is never admitted here: a request that asks it is still refused.
 */
export class FallbackAdmission implements Admission {
  private readonly recent = new Map<string, number[]>();

  constructor(
    private readonly shared: SharedKeyAdmission,
    private readonly liveInstances: () => number,
    private readonly now: () => number,
  ) {}

  get where(): string {
    return this.shared.where;
  }

  ping(): Promise<void> {
    return this.shared.ping();
  }

  async onRequest(keyId: string, requestId: string, atDecision: boolean): Promise<void> {
    if (!atDecision) await this.orOwnShare(() => this.shared.check(keyId, requestId, null));
  }

  onDecision(): void {}

  admit(keyId: string, requestId: string, mostItCosts: () => number): Promise<Reservation | null> {
    return this.orOwnShare(() => this.shared.check(keyId, requestId, mostItCosts));
  }

  settle(keyId: string, reservation: Reservation | null, usd: number): void {
    this.shared.settle(keyId, reservation, usd);
  }

  private async orOwnShare(check: () => Promise<Reservation | null>): Promise<Reservation | null> {
    try {
      return await check();
    } catch (error) {
      if (!(error instanceof SharedLimitsAway) || !error.checking || error.withCredit || error.row.rate_limit_rpm === null) throw error;
      this.admitOwnShare(error.row);
      return null;
    }
  }

  private admitOwnShare(row: ApiKeyRecord): void {
    const limit = row.rate_limit_rpm!;
    const share = Math.max(1, Math.floor(limit / Math.max(1, this.liveInstances())));
    const now = this.now();
    const times = this.recent.get(row.id) ?? [];
    while (times.length > 0 && now - times[0]! >= MINUTE) times.shift();
    if (times.length >= share) throw rateLimited(row.label, limit, Math.max(1, Math.ceil((times[0]! + MINUTE - now) / 1000)), share);
    times.push(now);
    this.recent.set(row.id, times);
  }
}
