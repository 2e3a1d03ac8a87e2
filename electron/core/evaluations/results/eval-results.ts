/**
 * evaluations/results/: the read side. Owns reading a run's results: EvalResults over
 * `EvalResultStorage` (answers of a run or a model, counts, matrix rows, distributions, one item,
 * every row), which is all Boxes, the reports, calibration and a run's view are given. May import
 * shared/ and datasets, runs/storage.ts and stored-run.ts (the run a result is of), and the pure
 * `judge` of reports/report.ts. Boxes import nothing else of evaluations/ (an ESLint rule).
 */
import type { DecisionsRequest } from '../../../../shared/schemas/decisions-request';
import type { EvalResultRow } from '../../../../shared/schemas/evaluation';
import type { Question } from '../../../../shared/schemas/question';
import { variantKeys } from '../../../../shared/evaluations/variant-keys';
import type { Datasets } from '../../datasets/datasets';
import type { EvalRunStorage, StoredEvalRun } from '../runs/storage';
import { storedRun } from '../runs/stored-run';
import { distributions, type Distribution } from './distributions';
import { matrixRow, type MatrixFilter } from './matrix';
import { resultView, type ResultView } from './result-view';
import type { EvalCounts, EvalResultStorage, StoredEvalResult } from './storage';

export interface EvalResultsDeps {
  results: EvalResultStorage;
  /** The run a result belongs to: its dataset, questions and models (read only). */
  runs: Pick<EvalRunStorage, 'getRun'>;
  datasets: Datasets;
}

/** The results of evaluation runs, read: what Boxes, the reports, exports and a run's progress are given. */
export class EvalResults {
  constructor(private readonly deps: EvalResultsDeps) {}

  /** The run as stored: its dataset, request and models (for other domains that read its answers). */
  stored(id: string): Promise<StoredEvalRun> {
    return storedRun(this.deps.runs, id);
  }

  /** The questions the run asks. */
  async questions(id: string): Promise<Record<string, Question>> {
    return ((await this.stored(id)).request as DecisionsRequest).questions as Record<string, Question>;
  }

  counts(id: string): Promise<EvalCounts> {
    return this.deps.results.counts(id);
  }

  /** USD the run's results cost, every try counted. */
  async spent(id: string): Promise<number> {
    return (await this.deps.results.counts(id)).spent;
  }

  /** Failed results not refused as malformed and sent fewer than `maxTries` times. */
  retryableCount(id: string, maxTries: number): Promise<number> {
    return this.deps.results.retryableCount(id, maxTries);
  }

  /** Per variant, answered results: how many, what they cost, their tokens and their items' content characters. */
  answeredByVariant(id: string): ReturnType<EvalResultStorage['answeredByVariant']> {
    return this.deps.results.answeredByVariant(id);
  }

  /** Every stored result of a run, by position then variant. */
  all(id: string): Promise<StoredEvalResult[]> {
    return this.deps.results.results(id);
  }

  /** Answers of each variant by item position (answered results only). */
  async answerMaps(id: string): Promise<Map<number, Map<number, Record<string, unknown>>>> {
    const byVariant = new Map<number, Map<number, Record<string, unknown>>>();
    for (const r of await this.all(id)) {
      if (!r.ok) continue;
      if (!byVariant.has(r.variant)) byVariant.set(r.variant, new Map());
      byVariant.get(r.variant)!.set(r.position, r.answers);
    }
    return byVariant;
  }

  /** Answered results of one variant by position (one position only when given), with when each was answered. */
  async answersOf(
    runId: string,
    variant: number,
    position?: number,
  ): Promise<{ position: number; answers: Record<string, unknown>; answered_at: string | null }[]> {
    if (position === undefined) return this.deps.results.answersOf(runId, variant);
    return (await this.deps.results.resultsAt(runId, position, variant)).filter((r) => r.ok);
  }

  /** The newest answer of a model (as variantKeys names it) to each item of a dataset, over every run of it. */
  newestAnswers(datasetId: string, modelKey: string, position?: number) {
    return this.deps.results.newestAnswers(datasetId, modelKey, position);
  }

  /** How long a model's newest answered items took, with their tokens, newest first. */
  recentItemTimes(modelKey: string, newest: number) {
    return this.deps.results.recentItemTimes(modelKey, newest);
  }

  /** Per model, answered results with their tokens summed (the user's own traffic). */
  answeredTokens(): Promise<{ model: string; requests: number; input: number; output: number; cost: number; priced: number }[]> {
    return this.deps.results.answeredTokens();
  }

  /**
   * Items × variants with right/wrong marks, filtered, one page at a time. The filtered rows are
   * kept for the next page while no result or dataset item was written (the `results` revision,
   * moved by triggers on both tables, whoever writes), so scrolling through them does not judge
   * every result again for each page. Keyed on every change to the file instead, a metrics flush or
   * an API call's spend during a scroll made the next page rebuild all 10,000 rows (about 200 ms of
   * the server's CPU, on the cores the page scrolls on).
   */
  async matrix(id: string, options: MatrixFilter & { offset: number; limit: number }): Promise<{ total: number; rows: EvalResultRow[] }> {
    // Moved by every write to results or dataset items, by any process; nothing else.
    const version = this.deps.results.changeToken();
    const key = JSON.stringify([id, options.filter, options.question ?? null, options.below ?? null, version]);
    if (this.matrixCache?.key !== key) this.matrixCache = { key, rows: await this.matrixRows(id, options) };
    const rows = this.matrixCache.rows;
    // Let go of them when nobody has scrolled for a while: a large run's rows are sizeable.
    clearTimeout(this.matrixRelease);
    this.matrixRelease = setTimeout(() => (this.matrixCache = null), 30_000).unref();
    return { total: rows.length, rows: rows.slice(options.offset, options.offset + options.limit) };
  }

  private matrixCache: { key: string; rows: EvalResultRow[] } | null = null;
  private matrixRelease: ReturnType<typeof setTimeout> | undefined;

  private async matrixRows(id: string, options: MatrixFilter): Promise<EvalResultRow[]> {
    const row = await this.stored(id);
    const request = row.request as DecisionsRequest;
    const keys = variantKeys(row.variants);
    const questions = Object.entries(request.questions as Record<string, Question>).filter(([n]) => !options.question || n === options.question);
    const results = await this.all(id);
    const rows: EvalResultRow[] = [];
    let r = 0;
    for await (const item of this.deps.datasets.iterate(row.dataset_id)) {
      const from = r;
      while (r < results.length && results[r]!.position === item.position) r += 1;
      const kept = matrixRow(item, results.slice(from, r), questions, keys, options);
      if (kept) rows.push(kept);
    }
    return rows;
  }

  /** What the charts draw beyond the report (distributions.ts). */
  async distributions(id: string): Promise<Distribution[]> {
    const row = await this.stored(id);
    const questions = Object.entries((row.request as DecisionsRequest).questions as Record<string, Question>).filter(
      ([, q]) => q.type === 'score' || q.type === 'box',
    );
    if (questions.length === 0) return [];
    const keys = variantKeys(row.variants);
    const expected = new Map((await this.deps.datasets.expectations(row.dataset_id)).map((i) => [i.position, i.expected as Record<string, unknown>]));
    return distributions(questions, keys, expected, await this.all(id));
  }

  /** One item with its state and every variant's full stored result. */
  async item(id: string, position: number) {
    const row = await this.stored(id);
    const keys = variantKeys(row.variants);
    const item = await this.deps.datasets.item(row.dataset_id, position);
    const results = await this.deps.results.resultsAt(id, position);
    return { item, results: results.map((r) => resultView(r, keys)) };
  }

  /** Every stored result with its item, one at a time (exports); items are read without their content. */
  async *rows(id: string): AsyncGenerator<{ item: { id: string; position: number; expected: Record<string, unknown> }; result: ResultView }> {
    const row = await this.stored(id);
    const keys = variantKeys(row.variants);
    const results = await this.all(id);
    let r = 0;
    for (const item of await this.deps.datasets.expectations(row.dataset_id)) {
      while (r < results.length && results[r]!.position === item.position)
        yield { item: { id: item.id, position: item.position, expected: item.expected }, result: resultView(results[r++]!, keys) };
    }
  }

  /** Lets go of the matrix rows kept for the next page. */
  close(): void {
    clearTimeout(this.matrixRelease);
    this.matrixCache = null;
  }
}
