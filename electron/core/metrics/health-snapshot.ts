/** An endpoint's health as the listings show it and the router reads it (routing/health.ts keeps it). */
export interface HealthSnapshot {
  /** The breaker is open: the endpoint failed repeatedly and waits out a cool-down. */
  paused: boolean;
  /** The provider asked us to wait (Retry-After) until then, ms since epoch. */
  cooldownUntil: number | null;
  lastFailureAt: number | null;
  consecutiveFailures: number;
}
