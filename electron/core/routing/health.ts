import type { Clock } from '../clock';
import type { HealthBroadcast, HealthEvent } from '../store/ports';

import type { HealthSnapshot } from '../metrics/health-snapshot';

export type { HealthSnapshot } from '../metrics/health-snapshot';

interface State {
  consecutiveFailures: number;
  trips: number;
  openUntil: number | null;
  cooldownUntil: number | null;
  lastFailureAt: number | null;
}

export interface BreakerOptions {
  failureThreshold: number;
  baseCooldownMs: number;
  maxCooldownMs: number;
}

export const DEFAULT_BREAKER: BreakerOptions = { failureThreshold: 3, baseCooldownMs: 30_000, maxCooldownMs: 300_000 };

/**
 * Per-endpoint circuit breaker and Retry-After cool-downs. After `failureThreshold` provider
 * faults in a row an endpoint is paused; after the cool-down one request probes it (half-open):
 * success closes the breaker, failure pauses it again for twice as long, up to the maximum.
 */
export class HealthRegistry {
  private readonly states = new Map<string, State>();
  /** Tells a team's other instances of an endpoint cooled here. */
  private broadcast: HealthBroadcast | null = null;

  /** Shares cool-downs and opened breakers with a team's other instances, and applies theirs here. */
  async shareWith(broadcast: HealthBroadcast): Promise<void> {
    this.broadcast = broadcast;
    await broadcast.subscribe((event) => this.apply(event));
  }

  /** Another instance cooled an endpoint: leave it alone here too until then. */
  apply(event: HealthEvent): void {
    if (event.until <= this.clock.now()) return;
    const s = this.state(event.endpointId);
    if (event.kind === 'cooldown') s.cooldownUntil = Math.max(s.cooldownUntil ?? 0, event.until);
    else s.openUntil = Math.max(s.openUntil ?? 0, event.until);
  }

  constructor(
    private readonly clock: Clock,
    private readonly options: BreakerOptions = DEFAULT_BREAKER,
  ) {}

  private state(id: string): State {
    let s = this.states.get(id);
    if (!s) {
      s = { consecutiveFailures: 0, trips: 0, openUntil: null, cooldownUntil: null, lastFailureAt: null };
      this.states.set(id, s);
    }
    return s;
  }

  snapshot(id: string): HealthSnapshot {
    const s = this.states.get(id);
    const now = this.clock.now();
    if (!s) return { paused: false, cooldownUntil: null, lastFailureAt: null, consecutiveFailures: 0 };
    return {
      paused: s.openUntil !== null && s.openUntil > now,
      cooldownUntil: s.cooldownUntil !== null && s.cooldownUntil > now ? s.cooldownUntil : null,
      lastFailureAt: s.lastFailureAt,
      consecutiveFailures: s.consecutiveFailures,
    };
  }

  onSuccess(id: string): void {
    const s = this.state(id);
    s.consecutiveFailures = 0;
    s.trips = 0;
    s.openUntil = null;
  }

  onFailure(id: string): void {
    const s = this.state(id);
    const now = this.clock.now();
    s.consecutiveFailures += 1;
    s.lastFailureAt = now;
    const halfOpenProbeFailed = s.trips > 0 && (s.openUntil === null || s.openUntil <= now);
    if (s.consecutiveFailures >= this.options.failureThreshold || halfOpenProbeFailed) {
      const cooldown = Math.min(this.options.maxCooldownMs, this.options.baseCooldownMs * 2 ** s.trips);
      s.trips += 1;
      s.openUntil = now + cooldown;
      this.broadcast?.publish({ endpointId: id, kind: 'open', until: s.openUntil });
    }
  }

  /** Retry-After from the provider: leave the endpoint alone until then. */
  onRetryAfter(id: string, waitMs: number): void {
    const s = this.state(id);
    s.cooldownUntil = Math.max(s.cooldownUntil ?? 0, this.clock.now() + waitMs);
    this.broadcast?.publish({ endpointId: id, kind: 'cooldown', until: s.cooldownUntil });
  }
}
