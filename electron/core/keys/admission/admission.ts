/**
 * Who is admitted: a key's rate limit and credit, held in this process (local.ts), on a team's
 * shared Redis (shared.ts), or on Redis with this instance's share of the rate limit while Redis is
 * away (fallback.ts). One is chosen in the composition root; the callers never ask which.
 */

/** Credit held for a request in flight, from admission until its real cost is charged. */
export interface Reservation {
  readonly keyId: string;
  readonly usd: number;
  /** Held by a team's shared admission under this request id (settled there), not in this process. */
  readonly shared?: string;
}

export interface Admission {
  /**
   * At authentication, before the route reads anything: the key's rate limit, unless the route
   * admits at its decision (`atDecision`) and this admission checks the rate limit there.
   */
  onRequest(keyId: string, requestId: string, atDecision: boolean): Promise<void> | void;
  /** A Decisions call begins, before anything is known of it: a key that has spent its credit is refused at once. */
  onDecision(keyId: string): void;
  /** Once the most a Decisions request can cost is known, before any upstream call: held until it is settled, or refused. */
  admit(keyId: string, requestId: string, mostItCosts: () => number): Promise<Reservation | null> | Reservation | null;
  /** The request ended with its real cost: its hold given back (and, on a shared admission, the cost counted there). */
  settle(keyId: string, reservation: Reservation | null, usd: number): void;
  /** Where the limits are kept when not in this process (for people and readiness), else null. */
  readonly where: string | null;
  /** Resolves when the place the limits are kept answers. */
  ping(): Promise<void>;
}
