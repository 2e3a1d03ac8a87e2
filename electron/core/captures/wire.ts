/**
 * The captures domain, wired: the request path's tap, the rules' service, and two schedules: the
 * rules read again every few seconds (another instance may have changed them, and the daily counts
 * move in every process), and retention once at start and then hourly.
 */
import type { AuditLog } from '../audit/audit-log';
import type { Clock } from '../clock';
import type { Datasets } from '../datasets/datasets';
import type { Logger } from '../logger';
import type { QuestionSets } from '../question-sets/question-sets';
import type { Storage } from '../store/ports';
import { Captures } from './captures';
import { CaptureTap } from './tap';

export const REFRESH_EVERY_MS = 5_000;
export const EXPIRE_EVERY_MS = 60 * 60 * 1000;

export interface CapturesDeps {
  storage: Pick<Storage, 'captures'>;
  clock: Clock;
  logger: Logger;
  audit: AuditLog;
  datasets: Datasets;
  questionSets: QuestionSets;
  /** API keys a rule may name (revoked or not). */
  apiKeys: { stored(id: string): Promise<unknown> };
  /** Models a rule may name. */
  catalog: { hasModel(id: string): boolean };
  options: {
    /** Commands that open the core only to read or copy (false) run no retention. */
    readonly resumeEvaluations?: boolean | undefined;
    /** Sampling's random numbers (tests pass their own). */
    readonly random?: (() => number) | undefined;
  };
}

export interface WiredCaptures {
  readonly captures: Captures;
  readonly tap: CaptureTap;
  /** Stops the schedules and writes what is waiting (before the storage closes). */
  close(): Promise<void>;
}

export async function wireCaptures(deps: CapturesDeps): Promise<WiredCaptures> {
  const { logger } = deps;
  const tap = new CaptureTap(deps.storage.captures, deps.clock, logger, deps.options.random);
  const captures = new Captures(deps.storage.captures, {
    ...deps,
    tap,
    knownKey: async (id) => (await deps.apiKeys.stored(id)) !== undefined,
    knownModel: (id) => deps.catalog.hasModel(id),
  });
  await captures.refresh();
  const timers: NodeJS.Timeout[] = [];
  const every = (ms: number, work: () => Promise<unknown>, what: string) => {
    const timer = setInterval(() => void work().catch((error: unknown) => logger.warn({ err: error }, what)), ms);
    timer.unref();
    timers.push(timer);
  };
  if (deps.options.resumeEvaluations !== false) {
    every(REFRESH_EVERY_MS, () => captures.refresh(), 'capture rules not read again');
    const expire = () => captures.expire();
    void expire().catch((error: unknown) => logger.warn({ err: error }, 'expired captures not deleted'));
    every(EXPIRE_EVERY_MS, expire, 'expired captures not deleted');
  }
  return {
    captures,
    tap,
    close: async () => {
      for (const timer of timers) clearInterval(timer);
      await tap.flush();
    },
  };
}
