/**
 * evaluations/calibration/: temperatures. Owns the pure fit (calibration.ts), applying a saved
 * temperature to an answer (apply-calibration.ts), a question set's key, and Calibrations (here):
 * fit on a run, save, list, delete, over `CalibrationStorage`. May import shared/, the clock, errors,
 * datasets and decisions/answers, the pure metric files of reports/, and results/ (the answers a fit
 * is made on).
 */
import { createHash } from 'node:crypto';
import type { DecisionsRequest } from '../../../../shared/schemas/decisions-request';
import type { CalibrationSummary, EvalVariant, SavedCalibration } from '../../../../shared/schemas/evaluation';
import type { Question } from '../../../../shared/schemas/question';
import { isoTime, type Clock } from '../../clock';
import { GatewayError } from '../../errors';
import type { Datasets } from '../../datasets/datasets';
import { calibrationPoint } from '../reports/report';
import type { EvalResults } from '../results/eval-results';
import { calibrate } from './calibration';
import type { CalibrationStorage } from './storage';

/** A question set's identity for saved calibrations: its questions, whatever it is called. */
export function setKey(questions: DecisionsRequest['questions']): string {
  return `q-${createHash('sha256').update(JSON.stringify(questions)).digest('hex').slice(0, 16)}`;
}

/** One calibration a run applies: a temperature for one of its models (by place) and one question. */
export type AppliedCalibration = { variant: number; question: string; temperature: number };

export interface CalibrationsDeps {
  storage: CalibrationStorage;
  results: Pick<EvalResults, 'stored' | 'all'>;
  datasets: Datasets;
  clock: Clock;
}

/** Temperatures fitted on a run's answers, saved per question set, model and question, and applied by later runs. */
export class Calibrations {
  constructor(private readonly deps: CalibrationsDeps) {}

  /** The saved calibrations of a question set for each model of a run, as they stand now. */
  async forRun(set: string, variants: readonly EvalVariant[]): Promise<AppliedCalibration[]> {
    const each = await Promise.all(
      variants.map(async (v, variant) =>
        (await this.deps.storage.calibrations({ set_key: set, model: v.model })).map((c) => ({ variant, question: c.question, temperature: c.temperature })),
      ),
    );
    return each.flat();
  }

  /** Fits a temperature for one variant and question (even positions), reported on odd positions. */
  async fitCalibration(id: string, variant: number, question: string): Promise<CalibrationSummary | null> {
    const row = await this.deps.results.stored(id);
    const q = (row.request as DecisionsRequest).questions[question] as Question | undefined;
    if (!q) throw new GatewayError('bad_request', `question: the run has no question "${question}"`);
    const expected = new Map(
      (await this.deps.datasets.expectations(row.dataset_id)).map((i) => [i.position, (i.expected as Record<string, unknown>)[question]]),
    );
    const points = (await this.deps.results.all(id))
      .filter((r) => r.variant === variant && r.ok)
      .flatMap((r) => {
        // Fitted on raw answers: a calibration already applied is not fitted again on top of itself.
        const answer = (r.raw_answers ?? r.answers)[question] as { type?: string } | undefined;
        const e = expected.get(r.position);
        const p = answer && e !== undefined && answer.type === q.type ? calibrationPoint(q, answer, e as never, r.position) : null;
        return p ? [p] : [];
      });
    return calibrate(points);
  }

  async saveCalibration(input: { run_id: string; variant: number; question: string; temperature: number }): Promise<SavedCalibration> {
    const row = await this.deps.results.stored(input.run_id);
    const model = row.variants[input.variant]?.model;
    if (!model) throw new GatewayError('bad_request', `variant: the run has no variant ${input.variant}`);
    const saved = { set_key: row.set_key, model, question: input.question, temperature: input.temperature, created_at: isoTime(this.deps.clock) };
    await this.deps.storage.saveCalibration(saved);
    return saved;
  }

  calibrations(): Promise<SavedCalibration[]> {
    return this.deps.storage.calibrations();
  }

  async deleteCalibration(input: { set_key: string; model: string; question: string }): Promise<{ deleted: number }> {
    return { deleted: await this.deps.storage.deleteCalibration(input) };
  }
}
