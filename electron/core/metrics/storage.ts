// The endpoint-metrics domain's storage. Implemented by store/sqlite and store/postgres; gathered into Storage by store/ports.ts.
import type { AttemptRecord } from './attempt';

/** One minute of an endpoint's figures: counts, and HDR histograms (compressed, base64) when any. */
export interface MinuteFigures {
  endpointId: string;
  /** Minutes since the epoch. */
  minute: number;
  attempts: number;
  faults: number;
  latency: string | null;
  throughput: string | null;
  /** The instance that measured them, where a team's instances share the store; absent where one process writes. */
  instance?: string;
}

/** A failed upstream attempt, logged one by one with its message (its outcome as stored text, whether it was the provider's fault). */
export interface FailedAttempt extends Omit<AttemptRecord, 'outcome'> {
  outcome: string;
  providerFault: boolean;
}

/** The endpoint-metrics domain's storage. Writes here are figures nobody was promised: written behind. */
export interface MetricsStorage {
  logFailure(attempt: FailedAttempt): void;
  /** Replaces what was saved for the endpoint and minute. */
  saveMinute(figures: MinuteFigures): void;
  /** Every endpoint's minutes after `minute`, oldest first. */
  minutesAfter(minute: number): Promise<MinuteFigures[]>;
  /**
   * The minutes other instances saved after `minute` that changed since `cursor` (the store's clock,
   * ms), with the cursor to ask from next. Where one process writes there are none.
   */
  minutesOfOthers(instance: string, cursor: number, minute: number): Promise<{ rows: MinuteFigures[]; cursor: number }>;
  /** Per endpoint, when its last provider-fault attempt started after `since` ended (ms since the epoch). */
  lastFaults(since: number): Promise<{ endpointId: string; at: number }[]>;
  /** Forgets minutes before `minute` and failures started before `startedAt`. */
  prune(minute: number, startedAt: number): Promise<void>;
  /** Resolves once what was written behind is stored. */
  flush(): Promise<void>;
}
