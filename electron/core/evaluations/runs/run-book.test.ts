import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DecisionsRequest } from '../../../../shared/schemas/decisions-request';
import { systemClock } from '../../clock';
import { GatewayError } from '../../errors';
import { silentLogger } from '../../logger';
import { Store } from '../../store/sqlite/database';
import { SqliteDatasetStore } from '../../store/sqlite/dataset-store';
import { sqliteEvaluationStorage } from '../../store/sqlite/eval-store';
import { Datasets } from '../../datasets/datasets';
import { readRows } from '../../datasets/dataset-sources';
import { wireEvaluations, type Evaluations } from '../wire';
import type { EvalDecide } from '../sending/eval-runner';

const QUESTIONS = { late: { type: 'noul' as const, instructions: 'Late?' } };
const REQUEST: DecisionsRequest = { model: 'm/a', state: '', questions: QUESTIONS };
const ITEMS = 20;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let dir: { path: string; cleanup(): void };
let store: Store;
let datasets: Datasets;
let calls: { model: string; state: unknown }[];
let behaviour: (request: DecisionsRequest, n: number) => Promise<Awaited<ReturnType<EvalDecide>>>;
let evals: Evaluations;
let decide: EvalDecide;
let datasetId: string;

const answer = (p: number, cost = 0.01): Awaited<ReturnType<EvalDecide>> => ({
  response: { answers: { late: { type: 'noul', noul: p } }, model: 'm/a', provider: 'P', usage: { input_tokens: 10, output_tokens: 1, cost } },
  methods: { late: 'logprobs' },
  attempts: [],
});

beforeEach(async () => {
  const path = mkdtempSync(join(tmpdir(), 'verdict-evals-'));
  dir = { path, cleanup: () => rmSync(path, { recursive: true, force: true }) };
  store = Store.open(join(dir.path, 'verdict.sqlite'));
  datasets = await Datasets.open(new SqliteDatasetStore(store), systemClock);
  calls = [];
  behaviour = async () => answer(0.9);
  decide = async (request, options) => {
    // The engine admits a request before any upstream call: only admitted ones count as sent.
    options.admit(() => 0.01);
    calls.push({ model: request.model, state: request.state });
    return behaviour(request, calls.length);
  };
  evals = wireEvaluations({
    storage: sqliteEvaluationStorage(store),
    clock: systemClock,
    logger: silentLogger,
    datasets,
    decide,
    sleep: async (ms) => void (await sleep(ms)),
  });
  const content = Array.from({ length: ITEMS }, (_, i) => JSON.stringify({ id: `i${i}`, state: `item ${i}`, expected: { late: i % 8 !== 0 } })).join('\n');
  datasetId = (await datasets.import({ name: 'd', rows: readRows(Readable.from([content]), 'd.jsonl', 'jsonl'), questions: QUESTIONS })).dataset!.id;
});
afterEach(() => {
  evals.close();
  store.close();
  dir.cleanup();
});

describe('evaluation runs', () => {
  it('runs every item on every model and stores each result with its cost', async () => {
    const run = await evals.runs.start({ request: REQUEST, dataset_id: datasetId, variants: [{ model: 'm/a' }, { model: 'm/b' }], concurrency: 4 });
    const done = await evals.runs.wait(run.id);
    expect(done).toMatchObject({ status: 'done', done: 2 * ITEMS, failed: 0, total: 2 * ITEMS });
    expect(done.spent_usd).toBeCloseTo(0.4, 10);
    expect(calls.filter((c) => c.model === 'm/b')).toHaveLength(ITEMS);
    expect((await evals.reports.report(run.id)).models.map((m) => [m.model, m.items, m.questions['late']!['accuracy']])).toEqual([
      ['m/a', ITEMS, 0.85],
      ['m/b', ITEMS, 0.85],
    ]);
  });

  it('once every item is answered, expects what was spent, whatever the estimate said', async () => {
    // m/a measures twice its fit, m/b exactly its fit: a request's tokens are the characters of its item's state as stored (JSON).
    behaviour = async (request) => {
      const chars = JSON.stringify(request.state).length;
      const tokens = request.model === 'm/a' ? 2 * chars : chars;
      return { ...answer(0.9), response: { ...answer(0.9).response, usage: { input_tokens: tokens, output_tokens: 0, cost: 0.01 } } };
    };
    const fit = { fixed: 0, per_char: 1 };
    const estimate = {
      expected_usd: 3,
      worst_usd: 9,
      input_tokens: 1,
      output_tokens: 0,
      variants: [
        { expected_usd: 1, fit },
        { expected_usd: 2, fit },
      ],
    };
    const run = await evals.runs.start({ request: REQUEST, dataset_id: datasetId, variants: [{ model: 'm/a' }, { model: 'm/b' }], concurrency: 4, estimate });
    await evals.runs.wait(run.id);
    const done = await evals.runs.get(run.id);
    expect(done.estimate).toEqual(estimate);
    // Two models, every item answered at 0.01: nothing left to expect beyond it (the estimate said 3).
    expect(done.spent_usd).toBeCloseTo(2 * ITEMS * 0.01, 12);
    expect(done.expected_usd).toBeCloseTo(done.spent_usd, 12);
  });

  it('stops before the budget would be exceeded, and resumes with a new budget', async () => {
    // Each call may cost 0.01 at most: a budget of 0.055 allows five.
    const run = await evals.runs.start({ request: REQUEST, dataset_id: datasetId, variants: [{ model: 'm/a' }], concurrency: 1, budget_usd: 0.055 });
    const stopped = await evals.runs.wait(run.id);
    expect(stopped.status).toBe('budget');
    expect(stopped.done).toBe(5);
    expect(stopped.spent_usd).toBeLessThanOrEqual(0.055);
    // The message says what was spent and why the sixth request was not sent (its worst case, 0.01, against 0.005 left).
    expect(stopped.message).toBe(
      'Stopped before the budget of $0.055 would be exceeded: $0.05 spent; the next request could cost up to $0.01 if every endpoint of its route were tried with the longest replies, more than the $0.005 left',
    );
    await evals.runs.resume(run.id, null);
    expect(await evals.runs.wait(run.id)).toMatchObject({ status: 'done', done: ITEMS });
    expect(calls).toHaveLength(ITEMS);
  });

  it('with requests in flight holding too much of the budget, waits for them instead of stopping', async () => {
    // Worst case 0.01 a request, each costs 0.004, budget 0.02, four at once. Holding 0.01 for each
    // request in flight, a second may start beside the first only while spent + 0.01 + 0.01 <= 0.02,
    // so they go one at a time: after 0, 1 and 2 answers spent is 0, 0.004, 0.008, each time room
    // for one (<= 0.01 left). After 3 (0.012 spent) the next worst case, 0.01, is more than the
    // 0.008 left with nothing in flight: the run stops there, with 3 done.
    behaviour = async () => {
      await sleep(5);
      return answer(0.9, 0.004);
    };
    const run = await evals.runs.start({ request: REQUEST, dataset_id: datasetId, variants: [{ model: 'm/a' }], concurrency: 4, budget_usd: 0.02 });
    const stopped = await evals.runs.wait(run.id);
    expect(stopped).toMatchObject({ status: 'budget', done: 3, failed: 0 });
    expect(stopped.spent_usd).toBeCloseTo(0.012, 10);
    expect(calls).toHaveLength(3);
    expect(stopped.message).toBe(
      'Stopped before the budget of $0.02 would be exceeded: $0.012 spent; the next request could cost up to $0.01 if every endpoint of its route were tried with the longest replies, more than the $0.008 left',
    );
  });

  it('a pause or cancel ends requests waiting for room in the budget', async () => {
    let release = () => {};
    behaviour = async () => {
      await new Promise<void>((resolve) => (release = resolve));
      return answer(0.9, 0.004);
    };
    const run = await evals.runs.start({ request: REQUEST, dataset_id: datasetId, variants: [{ model: 'm/a' }], concurrency: 4, budget_usd: 0.015 });
    // One request in flight holds 0.01; the other three wait for room.
    for (let i = 0; i < 50 && calls.length === 0; i += 1) await sleep(2);
    expect(await evals.runs.get(run.id)).toMatchObject({ status: 'running', in_flight: 4 });
    await evals.runs.pause(run.id);
    // The three waiting give up at once; the one sent is still out, and the run says so.
    await sleep(10);
    expect(await evals.runs.get(run.id)).toMatchObject({ status: 'paused', in_flight: 1, done: 0 });
    release();
    const paused = await evals.runs.wait(run.id);
    expect(paused).toMatchObject({ status: 'paused', done: 1, in_flight: 0 });
    expect(calls).toHaveLength(1);
  });

  it("refuses a question set that cannot take the dataset's expected answers, before anything is stored or sent", async () => {
    // The dataset answers "late" true (17 items, the first by id "i1") or false (3: i0, i8, i16).
    const other: DecisionsRequest = {
      model: 'm/a',
      state: '',
      questions: { late: { type: 'choice', instructions: 'When?', criteria: { early: 'e', ontime: 'o', late: 'l' } } },
    };
    const refused = await (async () => {
      try {
        await evals.runs.start({ request: other, dataset_id: datasetId, variants: [{ model: 'm/a' }], concurrency: 1 });
      } catch (error) {
        return error as GatewayError;
      }
      return null;
    })();
    expect(refused).toBeInstanceOf(GatewayError);
    expect(refused!.status).toBe(400);
    expect(refused!.message).toContain('dataset "d" has expected answers this question set cannot take');
    expect(refused!.message).toContain('expected.late: true is not an option of this question (options: "early", "ontime", "late") (17 items, e.g. "i1")');
    expect(refused!.message).toContain('expected.late: false is not an option of this question (options: "early", "ontime", "late") (3 items, e.g. "i0")');
    expect(await evals.runs.list()).toHaveLength(0);
    expect(calls).toHaveLength(0);
    // A set that asks other questions too, or not "late" at all, takes it: unasked answers are left alone.
    const wider: DecisionsRequest = {
      ...REQUEST,
      questions: { ...QUESTIONS, mood: { type: 'choice', instructions: 'Mood?', criteria: { happy: 'h', sad: 's' } } },
    };
    expect((await evals.runs.start({ request: wider, dataset_id: datasetId, variants: [{ model: 'm/a' }], concurrency: 4 })).status).toBe('running');
    const unasked: DecisionsRequest = { ...REQUEST, questions: { mood: { type: 'noul', instructions: 'Happy?' } } };
    expect((await evals.runs.start({ request: unasked, dataset_id: datasetId, variants: [{ model: 'm/a' }], concurrency: 4 })).status).toBe('running');
  });

  it('waits out a 429 as Retry-After says, then stores the answer (not a failure)', async () => {
    behaviour = async (_r, n) => {
      if (n === 1) throw new GatewayError('rate_limited', 'slow down', { headers: { 'Retry-After': '0.2' } });
      return answer(0.9);
    };
    const started = Date.now();
    const run = await evals.runs.start({ request: REQUEST, dataset_id: datasetId, variants: [{ model: 'm/a' }], concurrency: 1 });
    // While it waits, the run says so and for how long (progress would otherwise stand still unexplained).
    let waiting: number | null = null;
    for (let i = 0; i < 20 && waiting === null; i += 1) {
      await sleep(5);
      waiting = (await evals.runs.get(run.id)).waiting_ms;
    }
    expect(waiting).toBeGreaterThan(0);
    expect(waiting).toBeLessThanOrEqual(200);
    const done = await evals.runs.wait(run.id);
    expect(done).toMatchObject({ status: 'done', done: ITEMS, failed: 0, waiting_ms: null });
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(calls).toHaveLength(ITEMS + 1);
  });

  it('counts failed requests apart, with their error, and leaves them out of the metrics', async () => {
    behaviour = async (_r, n) => {
      if (n % 5 === 0) throw new GatewayError('bad_gateway', 'upstream broke');
      return answer(0.9);
    };
    const run = await evals.runs.start({ request: REQUEST, dataset_id: datasetId, variants: [{ model: 'm/a' }], concurrency: 1 });
    await evals.runs.wait(run.id);
    const m = (await evals.reports.report(run.id)).models[0]!;
    expect(m).toMatchObject({ items: ITEMS, failed: 4 });
    expect(m.questions['late']!.n).toBe(ITEMS - 4);
    expect((await evals.results.matrix(run.id, { offset: 0, limit: 100, filter: 'wrong' })).rows.some((r) => r.cells[0]!.error === '502: upstream broke')).toBe(
      true,
    );
  });

  it('pages of the results matrix follow a corrected expected answer at once', async () => {
    const run = await evals.runs.start({ request: REQUEST, dataset_id: datasetId, variants: [{ model: 'm/a' }], concurrency: 4 });
    await evals.runs.wait(run.id);
    // Every answer says 0.9 (late): items 0, 8 and 16 expect "not late" and are wrong.
    expect(await evals.results.matrix(run.id, { offset: 0, limit: 2, filter: 'wrong' })).toMatchObject({ total: 3, rows: [{ position: 0 }, { position: 8 }] });
    expect((await evals.results.matrix(run.id, { offset: 2, limit: 2, filter: 'wrong' })).rows.map((r) => r.position)).toEqual([16]);
    await datasets.updateExpected(datasetId, 8, { late: true }, QUESTIONS);
    expect((await evals.results.matrix(run.id, { offset: 0, limit: 5, filter: 'wrong' })).rows.map((r) => r.position)).toEqual([0, 16]);
    expect((await evals.results.matrix(run.id, { offset: 0, limit: 1, filter: 'all' })).total).toBe(ITEMS);
  });

  it('pages of the results matrix are not judged again when only other things were written meanwhile', async () => {
    const run = await evals.runs.start({ request: REQUEST, dataset_id: datasetId, variants: [{ model: 'm/a' }], concurrency: 4 });
    await evals.runs.wait(run.id);
    const first = (await evals.results.matrix(run.id, { offset: 0, limit: 2, filter: 'all' })).rows[0];
    // A write-behind batch, as the endpoint metrics and key usage stamps make while someone scrolls,
    // and a committed write such as an API call's spend.
    store.later('INSERT INTO settings (key, value) VALUES (?, ?)', ['metrics-like', '1']);
    store.flush();
    await store.commit('INSERT INTO settings (key, value) VALUES (?, ?)', ['spend-like', '1']);
    expect((await evals.results.matrix(run.id, { offset: 0, limit: 2, filter: 'all' })).rows[0]).toBe(first);
    // Saved work written: the rows are made again, with the change.
    await datasets.updateExpected(datasetId, 0, { late: true }, QUESTIONS);
    const again = (await evals.results.matrix(run.id, { offset: 0, limit: 2, filter: 'all' })).rows[0]!;
    expect(again).not.toBe(first);
    expect(again.cells[0]!.correct['late']).toBe(true);
    // So is a result written by another process (here a second connection to the same file).
    const other = Store.open(join(dir.path, 'verdict.sqlite'));
    try {
      other.run('UPDATE eval_results SET answers = ? WHERE run_id = ? AND position = 0', [JSON.stringify({ late: { type: 'noul', noul: 0.1 } }), run.id]);
    } finally {
      other.close();
    }
    expect((await evals.results.matrix(run.id, { offset: 0, limit: 2, filter: 'all' })).rows[0]!.cells[0]!.correct['late']).toBe(false);
  });

  it('pauses and resumes without sending anything twice', async () => {
    behaviour = async () => (await sleep(5), answer(0.9));
    const run = await evals.runs.start({ request: REQUEST, dataset_id: datasetId, variants: [{ model: 'm/a' }], concurrency: 2 });
    await sleep(20);
    await evals.runs.pause(run.id);
    const paused = await evals.runs.wait(run.id);
    expect(paused.status).toBe('paused');
    expect(paused.done).toBeLessThan(ITEMS);
    await evals.runs.resume(run.id);
    expect(await evals.runs.wait(run.id)).toMatchObject({ status: 'done', done: ITEMS });
    expect(new Set(calls.map((c) => c.state)).size).toBe(ITEMS);
    expect(calls).toHaveLength(ITEMS);
  });

  it('a resume sent while a pause lets requests in flight return is not lost', async () => {
    behaviour = async () => (await sleep(60), answer(0.9));
    const run = await evals.runs.start({ request: REQUEST, dataset_id: datasetId, variants: [{ model: 'm/a' }], concurrency: 2 });
    await sleep(20);
    await evals.runs.pause(run.id);
    // Two requests are still in flight: the paused runner has not finished yet.
    expect((await evals.runs.resume(run.id)).status).toBe('running');
    let settled = await evals.runs.wait(run.id);
    while (settled.status === 'running') settled = await evals.runs.wait(run.id);
    expect(settled).toMatchObject({ status: 'done', done: ITEMS });
    expect(calls).toHaveLength(ITEMS);
  });

  it('a pause does not wait out a Retry-After first, and a resume then goes on', async () => {
    evals.close();
    // The runs' own sleep, which a stop wakes (the other tests use one that ignores it).
    evals = wireEvaluations({ storage: sqliteEvaluationStorage(store), clock: systemClock, logger: silentLogger, datasets, decide });
    behaviour = async (_r, n) => {
      if (n === 1) throw new GatewayError('rate_limited', 'slow down', { headers: { 'Retry-After': '30' } });
      return answer(0.9);
    };
    const run = await evals.runs.start({ request: REQUEST, dataset_id: datasetId, variants: [{ model: 'm/a' }], concurrency: 1 });
    while ((await evals.runs.get(run.id)).waiting_ms === null) await sleep(5);
    const pausedAt = Date.now();
    await evals.runs.pause(run.id);
    expect(await evals.runs.wait(run.id)).toMatchObject({ status: 'paused', done: 0 });
    expect(Date.now() - pausedAt).toBeLessThan(5_000);
    await evals.runs.resume(run.id);
    expect(await evals.runs.wait(run.id)).toMatchObject({ status: 'done', done: ITEMS, failed: 0 });
  });

  it('a saved calibration adjusts later runs of the set on that model, says so in the method and keeps the raw answer', async () => {
    const first = await evals.runs.start({ request: REQUEST, dataset_id: datasetId, variants: [{ model: 'm/a' }], concurrency: 4 });
    await evals.runs.wait(first.id);
    const fitted = (await evals.calibrations.fitCalibration(first.id, 0, 'late'))!;
    // Every answer says 0.9; of the 10 even positions 7 are right (0, 8 and 16 are not): the fit
    // softens 0.9 to 0.7: σ(ln 9 / T) = 0.7 ⇔ T = ln 9 / ln(7/3) = 2.593.
    expect(fitted.temperature).toBeCloseTo(Math.log(9) / Math.log(7 / 3), 3);
    await evals.calibrations.saveCalibration({ run_id: first.id, variant: 0, question: 'late', temperature: 2 });
    const second = await evals.runs.start({ request: REQUEST, dataset_id: datasetId, variants: [{ model: 'm/a' }, { model: 'm/b' }], concurrency: 4 });
    await evals.runs.wait(second.id);
    const item = await evals.results.item(second.id, 1);
    const [a, b] = item.results;
    expect(a!.answers['late']).toEqual({ type: 'noul', noul: 0.75 });
    expect(a!.raw_answers!['late']).toEqual({ type: 'noul', noul: 0.9 });
    expect(a!.methods!['late']).toBe('logprobs+temperature(T=2)');
    expect(b!.answers['late']).toEqual({ type: 'noul', noul: 0.9 });
    expect(b!.raw_answers).toBeNull();
    // All now say 0.75 and 17 of 20 are right: ECE |0.85 − 0.75| = 0.1.
    expect((await evals.reports.report(second.id)).models[0]!.questions['late']!['ece']).toBeCloseTo(0.1, 9);
    // The run says what it applied: m/a's late at T = 2, nothing for m/b; the first run applied none.
    expect((await evals.runs.get(second.id)).calibrations).toEqual([{ variant: 0, question: 'late', temperature: 2 }]);
    expect((await evals.runs.get(first.id)).calibrations).toEqual([]);
  });

  it('a run keeps the calibrations it started with when one is saved or deleted while it is under way', async () => {
    const fitOn = await evals.runs.start({ request: REQUEST, dataset_id: datasetId, variants: [{ model: 'm/a' }], concurrency: 4 });
    await evals.runs.wait(fitOn.id);
    const saved = await evals.calibrations.saveCalibration({ run_id: fitOn.id, variant: 0, question: 'late', temperature: 3 });
    const run = await evals.runs.start({ request: REQUEST, dataset_id: datasetId, variants: [{ model: 'm/a' }], concurrency: 1 });
    await evals.runs.pause(run.id);
    await evals.runs.wait(run.id);
    // While it is paused the calibration is replaced, then deleted: the run goes on at T = 3.
    await evals.calibrations.saveCalibration({ run_id: fitOn.id, variant: 0, question: 'late', temperature: 1.5 });
    await evals.calibrations.deleteCalibration({ set_key: saved.set_key, model: 'm/a', question: 'late' });
    await evals.runs.resume(run.id);
    const done = await evals.runs.wait(run.id);
    expect(done).toMatchObject({ status: 'done', done: ITEMS, calibrations: [{ variant: 0, question: 'late', temperature: 3 }] });
    const methods = new Set(
      await Promise.all(Array.from({ length: ITEMS }, async (_, p) => (await evals.results.item(run.id, p)).results[0]!.methods!['late'])),
    );
    expect([...methods]).toEqual(['logprobs+temperature(T=3)']);
  });
});
