import { benchCore } from './bench-core';
import type { Core } from '../core';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Question } from '../../shared/schemas/question';
import type { EvalVariant } from '../../shared/schemas/evaluation';
import { fileRows } from '../core/datasets/dataset-sources';
import { evalReport, type StoredResult } from '../core/evaluations/reports/report';
import { wireEvaluations } from '../core/evaluations/wire';
import { noulMetrics, choiceMetrics, scoreMetrics } from '../core/evaluations/reports/metrics';
import { fleetProcess } from './fleet-process';
import { atMost, fmt, publish, row, type BenchRow } from './report';
import { resultsMatrixBench } from './results-matrix';
import { uploadBench } from './upload';
import { estimateBench } from './estimates';
import { storageOf } from '../test-support/internals-of';

/**
 * Issue 12's targets: metrics for 10,000 items, an import of 100,000 JSONL items, and a run of
 * 10,000 items × 3 questions × 2 models on the simulated providers (in a process of their own,
 * answering at once) with the run's own CPU time, peak RSS and memory growth per stored item.
 */
const root = join(import.meta.dirname, '..', '..');
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const MiB = 1024 * 1024;

const QUESTIONS: Record<string, Question> = {
  late: { type: 'noul', instructions: 'Did the parcel arrive late?' },
  topic: {
    type: 'choice',
    instructions: 'What is the message about?',
    criteria: { delivery: 'late or lost parcels', billing: 'invoices and refunds', account: 'logins and addresses' },
  },
  severity: { type: 'score', instructions: 'How severe is the problem?', criteria: ['none', 'minor', 'major', 'critical'] },
};
const WORDS = 'parcel delivery refund damaged customer invoice late courier warehouse support order tracking address weekend package'.split(' ');
const text = (i: number, words: number) => Array.from({ length: words }, (_, k) => WORDS[(i * 7 + k * 3) % WORDS.length]).join(' ');
const expectedOf = (i: number) => ({ late: i % 3 !== 0, topic: ['delivery', 'billing', 'account'][i % 3]!, severity: i % 4 });

const rng = (seed: number) => () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;

function metricsBench(): BenchRow[] {
  const n = 10_000;
  const r = rng(7);
  const items = Array.from({ length: n }, (_, position) => ({ position, expected: expectedOf(position) }));
  const results: StoredResult[] = items.map(({ position }) => {
    const p = r();
    const probs = [r(), r(), r()];
    const sum = probs[0]! + probs[1]! + probs[2]!;
    const levels = [r(), r(), r(), r()];
    const lsum = levels.reduce((a, b) => a + b, 0);
    return {
      position,
      ok: true,
      cost: 0.0001,
      input_tokens: 100,
      output_tokens: 3,
      latency_ms: 100 + r() * 300,
      answers: {
        late: { type: 'noul', noul: p },
        topic: {
          type: 'choice',
          choice: ['delivery', 'billing', 'account'][probs.indexOf(Math.max(...probs))],
          probabilities: { delivery: probs[0]! / sum, billing: probs[1]! / sum, account: probs[2]! / sum },
        },
        severity: {
          type: 'score',
          score: levels.reduce((s, v, k) => s + (k * v) / lsum, 0),
          probabilities: Object.fromEntries(levels.map((v, k) => [String(k), v / lsum])),
        },
      },
    };
  });
  const time = (work: () => void) => {
    work();
    const samples: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const t0 = performance.now();
      work();
      samples.push(performance.now() - t0);
    }
    return samples.sort((a, b) => a - b)[2]!;
  };
  const metricsOnly = time(() => {
    noulMetrics(results.map((x, i) => ({ p: (x.answers['late'] as { noul: number }).noul, expected: items[i]!.expected.late })));
    choiceMetrics(
      results.map((x, i) => {
        const a = x.answers['topic'] as { choice: string; probabilities: Record<string, number> };
        return { predicted: a.choice, probabilities: a.probabilities, expected: items[i]!.expected.topic };
      }),
      ['delivery', 'billing', 'account'],
    );
    scoreMetrics(
      results.map((x, i) => {
        const a = x.answers['severity'] as { score: number; probabilities: Record<string, number> };
        return { score: a.score, probabilities: a.probabilities, expected: items[i]!.expected.severity };
      }),
      4,
    );
  });
  const whole = time(() => evalReport({ questions: QUESTIONS, items, variants: [{ key: 'm', results }] }));
  return [
    row('metrics and reliability, 10,000 items × 3 questions (median of 5)', `${fmt(metricsOnly, 1)} ms`, atMost(50, ' ms', metricsOnly)),
    row('the whole report with temperature fits, same data (median of 5)', `${fmt(whole, 1)} ms`),
  ];
}

async function importBench(dir: string, core: Core): Promise<BenchRow[]> {
  const n = Number(process.env['BENCH_IMPORT_ITEMS'] ?? 100_000);
  const path = join(dir, 'items.jsonl');
  const out = createWriteStream(path);
  for (let i = 0; i < n; i += 1) {
    if (!out.write(`${JSON.stringify({ id: `item-${i}`, state: text(i, 160), expected: expectedOf(i) })}\n`))
      await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((r) => out.end(() => r()));
  const size = statSync(path).size;
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  let peakRss = process.memoryUsage().rss;
  let peakHeap = heapBefore;
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
  }, 50);
  const t0 = performance.now();
  const report = await core.datasets.import({ name: 'bench', rows: fileRows(path), questions: QUESTIONS });
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  if (report.imported !== n) throw new Error(`imported ${report.imported} of ${n}: ${JSON.stringify(report.problems.slice(0, 3))}`);
  return [
    row(`import of ${n.toLocaleString('en-US')} JSONL items (${fmt(size / MiB, 0)} MiB)`, `${fmt(seconds, 1)} s`, atMost(20, ' s', seconds)),
    row(
      'heap above the start during that import (peak, garbage included)',
      `${fmt((peakHeap - heapBefore) / MiB, 0)} MiB`,
      atMost(100, ' MiB', (peakHeap - heapBefore) / MiB),
    ),
    row('peak RSS during that import', `${fmt(peakRss / MiB, 0)} MiB`),
  ];
}

/** CPU time (ms) a process has used so far, from /proc (Linux); null elsewhere. */
function processCpuMs(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime are fields 14 and 15 of the whole line, in clock ticks (100 a second on Linux).
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return null;
  }
}

const RUN_ROUNDS = 3;

/** One run of every item of the dataset: this process's CPU per item, the upstream's, and (when asked) memory. */
async function timedRun(core: Core, datasetId: string, variants: EvalVariant[], upstreamPid: number, watchMemory: boolean) {
  gc();
  const rssStart = process.memoryUsage().rss;
  let peak = rssStart;
  const heapAt: { done: number; heap: number }[] = [];
  const cpu0 = process.cpuUsage();
  const upstream0 = processCpuMs(upstreamPid);
  const t0 = performance.now();
  const run = await core.evalRuns.start({
    request: { model: 'sandbox/baseline-text', state: '', questions: QUESTIONS as never },
    dataset_id: datasetId,
    variants,
    concurrency: 16,
  });
  const sampler = watchMemory
    ? setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().rss);
        void core.evalRuns.get(run.id).then((view) => {
          if (heapAt.length < 4 && view.done >= ((heapAt.length + 1) * view.total) / 5) {
            gc();
            heapAt.push({ done: view.done, heap: process.memoryUsage().heapUsed });
          }
        });
      }, 100)
    : null;
  const done = await core.evalRuns.wait(run.id);
  if (sampler) clearInterval(sampler);
  const wall = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const upstream1 = processCpuMs(upstreamPid);
  const items = done.total / variants.length;
  const first = heapAt[0];
  const last = heapAt.at(-1);
  return {
    cpuPerItem: (cpu.user + cpu.system) / 1000 / items,
    upstreamPerItem: upstream0 !== null && upstream1 !== null ? (upstream1 - upstream0) / items : null,
    peak,
    growth: first && last && last.done > first.done ? (last.heap - first.heap) / (last.done - first.done) : 0,
    wall,
    done,
  };
}

async function runBench(core: Core, dir: string, upstreamPid: number): Promise<{ rows: BenchRow[]; detail: string }> {
  const n = Number(process.env['BENCH_EVAL_ITEMS'] ?? 10_000);
  const path = join(dir, 'run.jsonl');
  const out = createWriteStream(path);
  for (let i = 0; i < n; i += 1) out.write(`${JSON.stringify({ id: `r-${i}`, state: text(i, 40), expected: expectedOf(i) })}\n`);
  await new Promise<void>((r) => out.end(() => r()));
  const dataset = (await core.datasets.import({ name: 'run', rows: fileRows(path), questions: QUESTIONS })).dataset!;
  const runnerOnly = await runnerAlone(core, dataset.id, n);
  const variants = [
    { model: 'sandbox/baseline-text', label: 'swift', provider: { order: ['sim-swift'], allow_fallbacks: false } },
    { model: 'sandbox/baseline-text', label: 'bargain', provider: { order: ['sim-bargain'], allow_fallbacks: false } },
  ];
  // Three runs, each of every item anew: the CPU figure is their median (one run on a shared machine
  // moves by a fifth either way); memory is read during the first.
  const runs: Awaited<ReturnType<typeof timedRun>>[] = [];
  for (let round = 0; round < RUN_ROUNDS; round += 1) runs.push(await timedRun(core, dataset.id, variants, upstreamPid, round === 0));
  const byCpu = [...runs].sort((a, b) => a.cpuPerItem - b.cpuPerItem);
  const { cpuPerItem, upstreamPerItem } = byCpu[Math.floor(byCpu.length / 2)]!;
  const { peak, growth, wall, done } = runs[0]!;
  const requests = done.done;
  return {
    rows: [
      row(
        `run of ${n.toLocaleString('en-US')} items × 3 questions × 2 models through the gateway on simulated providers: the run's own work per item (this process's CPU, both models; median of ${RUN_ROUNDS} runs)`,
        `${fmt(cpuPerItem, 2)} ms (${runs.map((r) => fmt(r.cpuPerItem, 2)).join(', ')})`,
        atMost(2, ' ms', cpuPerItem),
      ),
      row('the same per request (one item on one model, 3 upstream calls)', `${fmt(cpuPerItem / 2, 2)} ms`),
      row(
        "the simulated providers' own CPU per item, in their process (the upstream side, not counted above)",
        upstreamPerItem === null ? 'not measured (needs /proc)' : `${fmt(upstreamPerItem, 2)} ms`,
      ),
      ...runnerOnly,
      row('peak RSS during the first run', `${fmt(peak / MiB, 0)} MiB`, atMost(400, ' MiB', peak / MiB)),
      row('heap growth per stored result, between 20% and 80% done (after GC)', `${fmt(growth, 0)} bytes`, atMost(200, ' bytes', growth)),
      row('wall time of the first run', `${fmt(wall, 1)} s (${fmt(requests / wall, 0)} requests/s, ${done.failed} failed)`),
    ],
    detail: `"The run's own work" is this process's CPU time during the run through the real gateway path (routing, request building, the HTTP client, stream parsing, answer extraction, the runner and its SQLite commit of each result), divided by the items. The simulated providers answer at once (time scale 0) in a process of their own, so the upstream's work is not in it; it is shown apart, read from /proc. "The evaluation runner alone" is the same run with a decide function that answers at once without any upstream call: reading items, building each request, applying calibrations, committing each result and counting progress. Concurrency 16. Measured on a shared machine: other work running beside it inflates CPU times.`,
  };
}

/** Heap after GC at 20%, 40%, 60% and 80% of a run, as bytes per stored result from the first sample to the last. */
function heapGrowth(view: () => Promise<{ done: number; total: number }>): { stop(): number } {
  const samples: { done: number; heap: number }[] = [];
  const timer = setInterval(() => {
    void view().then((v) => {
      if (samples.length < 4 && v.done >= ((samples.length + 1) * v.total) / 5) {
        gc();
        samples.push({ done: v.done, heap: process.memoryUsage().heapUsed });
      }
    });
  }, 20);
  return {
    stop() {
      clearInterval(timer);
      const first = samples[0];
      const last = samples.at(-1);
      return first && last && last.done > first.done ? (last.heap - first.heap) / (last.done - first.done) : 0;
    },
  };
}

/** The runner with answers that cost nothing to make: what an evaluation adds around each request. */
async function runnerAlone(core: Core, datasetId: string, n: number): Promise<BenchRow[]> {
  const answer = {
    response: {
      answers: {
        late: { type: 'noul' as const, noul: 0.8 },
        topic: { type: 'choice' as const, choice: 'delivery', confidence: 0.7, probabilities: { delivery: 0.7, billing: 0.2, account: 0.1 } },
        severity: { type: 'score' as const, score: 1.2, probabilities: { '0': 0.2, '1': 0.5, '2': 0.2, '3': 0.1 } },
      },
      model: 'm',
      provider: 'P',
      usage: { input_tokens: 300, output_tokens: 3, cost: 0.0003 },
    },
    methods: { late: 'logprobs', topic: 'logprobs', severity: 'logprobs' },
    attempts: [{ endpoint: 'p/m', outcome: 'ok', message: null, total_ms: 1 }],
  };
  const evaluations = wireEvaluations({
    storage: storageOf(core),
    clock: core.clock,
    logger: core.logger,
    datasets: core.datasets,
    decide: async (_request, options) => (options.admit(() => 0.001), answer),
  });
  const runs = evaluations.runs;
  gc();
  const cpu0 = process.cpuUsage();
  const run = await runs.start({
    request: { model: 'm', state: '', questions: QUESTIONS as never },
    dataset_id: datasetId,
    variants: [{ model: 'a' }, { model: 'b' }],
    concurrency: 16,
  });
  const growth = heapGrowth(() => runs.get(run.id));
  await runs.wait(run.id);
  const cpu = process.cpuUsage(cpu0);
  const perItem = (cpu.user + cpu.system) / 1000 / n;
  const perResult = growth.stop();
  void evaluations.close();
  return [
    row('of which the evaluation runner alone (the same run with an instant decide, no gateway)', `${fmt(perItem, 3)} ms`),
    row("the runner's heap growth per stored result, between 20% and 80% done (after GC)", `${fmt(perResult, 0)} bytes`, atMost(100, ' bytes', perResult)),
  ];
}

const MATRIX_DETAIL =
  "The results matrix is measured in the built app (`npm run build`) in the Chromium the browser tests use (a system one, else the one from @sparticuz/chromium), headless without GPU, after a run of 10,000 items on the simulated providers: rows are virtualised (those in view and 10 on each side are in the DOM) and fetched 200 at a time, the next page before it is reached. The streamed upload is one request to the built server in a process of its own, as the Evaluations screen sends a file, with that process's memory read from /proc. Frame intervals are wall-clock times between animation frames, so they include whatever else the machine runs at the time; the CPU per frame is the page's own main-thread work in the same scroll, from a Chromium trace.";

// VERDICT_BENCH_ONLY=run,matrix measures only those parts (metrics, estimate, import, run, upload, matrix), to try a change;
// the figures worth quoting come from the whole bench.
const ONLY = process.env['VERDICT_BENCH_ONLY']?.split(',').map((part) => part.trim());
const measures = (part: 'metrics' | 'estimate' | 'import' | 'run' | 'upload' | 'matrix') => !ONLY || ONLY.includes(part);

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'verdict-bench-'));
  const { child, catalog } = await fleetProcess(root);
  const rows: BenchRow[] = [];
  const details: string[] = [];
  const core = await benchCore(dataDir);
  try {
    await core.replaceCatalogFile(catalog);
    if (measures('metrics')) rows.push(...metricsBench());
    if (measures('import')) rows.push(...(await importBench(dataDir, core)));
    if (measures('run')) {
      const run = await runBench(core, dataDir, child.pid!);
      rows.push(...run.rows);
      details.push(run.detail);
    }
    // After the import and the run: its images and runs would otherwise be in their peak RSS.
    if (measures('estimate')) {
      const estimates = await estimateBench();
      rows.push(...estimates.rows);
      details.push(estimates.detail);
    }
  } finally {
    child.kill('SIGTERM');
    await core.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  // The browser measures last, with nothing else of this bench running beside it.
  if (measures('upload')) rows.push(...(await uploadBench(root)));
  if (measures('matrix')) rows.push(...(await resultsMatrixBench(root)));
  publish({ root, argv: process.argv.slice(2), title: 'Evaluations', resultHeader: 'result', rows, detail: [...details, MATRIX_DETAIL].join(' ') });
}

await main();
