import type { Clock } from '../clock';
import type { KeyStorage } from '../store/ports';
import { roundUsd } from './admission/refusals';

/**
 * What each key spent: every charge written through to the store before the answer leaves (a group
 * commit shared by the requests answered in the same turn of the event loop), so a crash loses no
 * acknowledged charge; and kept here, for the local admission's credit checks.
 */
export class SpendLedger {
  /** USD spent per key as this process knows it: the stored spend when first asked, plus what it charged since. */
  private readonly spentByKey = new Map<string, number>();

  constructor(
    private readonly store: KeyStorage,
    private readonly clock: Clock,
    /** The key's spend as last read from the store (for a key this ledger has not charged yet). */
    private readonly stored: (id: string) => number | undefined,
  ) {}

  spent(id: string): number {
    return this.spentByKey.get(id) ?? this.stored(id) ?? 0;
  }

  /** Adds a finished request's real cost to its key. Resolves once committed: the answer (or error) must not leave before. */
  charge(id: string, usd: number, requestId?: string): Promise<void> {
    if (!(usd > 0)) return Promise.resolve();
    this.spentByKey.set(id, this.spent(id) + usd);
    return this.store.charge(id, usd, requestId);
  }

  /**
   * What a key spent in the current UTC day, week (from Monday) and month, from the per-day spend
   * the store keeps with every charge.
   */
  async periods(id: string): Promise<{ day: number; week: number; month: number }> {
    const now = new Date(this.clock.now());
    const day = now.toISOString().slice(0, 10);
    const monday = new Date(now.getTime() - ((now.getUTCDay() + 6) % 7) * 86_400_000).toISOString().slice(0, 10);
    const month = `${day.slice(0, 8)}01`;
    const days = await this.store.spendByDay(id, monday < month ? monday : month);
    const since = (from: string) => roundUsd([...days].reduce((sum, [d, usd]) => (d >= from ? sum + usd : sum), 0));
    return { day: since(day), week: since(monday), month: since(month) };
  }
}
