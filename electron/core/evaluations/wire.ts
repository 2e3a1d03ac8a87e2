/**
 * The evaluations domain, wired: the run book (runs/), the sender over its work source (sending/),
 * the read side (results/), the reports (reports/) and saved calibrations (calibration/), each over
 * its own storage port. Whether a team's instances send runs together is chosen here, once.
 */
import type { Clock } from '../clock';
import type { CancelSignal } from '../cancel';
import type { Datasets } from '../datasets/datasets';
import type { Logger } from '../logger';
import type { GatewayService } from '../service';
import type { EvaluationStorage } from '../store/ports';
import { Calibrations } from './calibration/calibrations';
import { EvalReports } from './reports/eval-reports';
import { EvalResults } from './results/eval-results';
import { EvalRunBook } from './runs/run-book';
import { ClaimedQueue } from './sending/claimed-queue';
import type { EvalDecide } from './sending/eval-runner';
import { LocalQueue } from './sending/local-queue';
import { RunSender } from './sending/run-sender';

export interface EvaluationsDeps {
  storage: EvaluationStorage;
  clock: Clock;
  logger: Logger;
  datasets: Datasets;
  decide: EvalDecide;
  sleep?: (ms: number, signal: CancelSignal) => Promise<void>;
  /**
   * Who this process is among a team's instances (host and data directory): a run is sent by one of
   * them at a time, under a lease; a process restarted as the same one takes its runs back at once,
   * another only once their lease ended.
   */
  owner?: string;
  /**
   * A team's instances send every running run together (Postgres): each live instance claims items
   * of it and sends them; a claim lasts `claimLeaseMs` unrenewed (by default CLAIM_LEASE_MS). Without
   * it (SQLite, one process) one process sends a run.
   */
  team?: { claimLeaseMs?: number | undefined } | undefined;
}

export interface Evaluations {
  readonly runs: EvalRunBook;
  readonly results: EvalResults;
  readonly reports: EvalReports;
  readonly calibrations: Calibrations;
  /**
   * Stops work without changing any status: running runs resume at the next start (or go on at a
   * team's other instances, which take this one's items at once). Resolves once they stopped.
   */
  close(): Promise<void>;
}

export function wireEvaluations(deps: EvaluationsDeps): Evaluations {
  const { storage, clock, logger, datasets } = deps;
  const owner = deps.owner ?? 'this process';
  const results = new EvalResults({ results: storage.evalResults, runs: storage.evalRuns, datasets });
  const calibrations = new Calibrations({ storage: storage.calibrations, results, datasets, clock });
  const local = new LocalQueue({ runs: storage.evalRuns, work: storage.evalWork, datasets, clock, logger, owner });
  const source = deps.team
    ? new ClaimedQueue({
        runs: storage.evalRuns,
        results: storage.evalResults,
        work: storage.evalWork,
        datasets,
        clock,
        logger,
        owner,
        claimLeaseMs: deps.team.claimLeaseMs,
        local,
      })
    : local;
  const sender = new RunSender({
    source,
    runs: storage.evalRuns,
    results: storage.evalResults,
    work: storage.evalWork,
    savedCalibrations: (set, variants) => calibrations.forRun(set, variants),
    datasets,
    clock,
    logger,
    decide: deps.decide,
    sleep: deps.sleep,
  });
  const runs = new EvalRunBook({ runs: storage.evalRuns, results, sender, work: storage.evalWork, calibrations, datasets, clock });
  return {
    runs,
    results,
    reports: new EvalReports({ results, datasets }),
    calibrations,
    close: async () => {
      results.close();
      await sender.close();
    },
  };
}

/** Sends an evaluation's requests through the service that answers (here or at a remote gateway, as the settings say). */
export function decideThrough(service: () => Pick<GatewayService, 'decide'>): EvalDecide {
  // Built in, the engine's attempts are kept with each result; a remote gateway reports none.
  return async (request, decideOptions, cascade) => {
    // A cascade variant: both stages billed to the run and held against its budget, the answering stage's answers stored.
    const stages = cascade ? { then: cascade.model, when: cascade.when, fallbacks: [] } : undefined;
    const answered = await service().decide(request, { ...decideOptions, ...(stages ? { stages } : {}) });
    const attempts = answered.route?.attempts.map((a) => ({ endpoint: a.endpoint.id, outcome: a.outcome, message: a.message, total_ms: a.totalMs })) ?? null;
    return { response: answered.response, methods: answered.methods, attempts };
  };
}
