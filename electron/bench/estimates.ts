import { benchCore } from './bench-core';
/**
 * How close the expected cost of a run is to what the run then costs, on the simulated fleet
 * (routing picks endpoints at random by price, skips one that failed in the last 30 s): Evaluations
 * runs over varied text datasets, and Boxes runs over varied images, with the fleet's scripted
 * failures and 429s on and off. Against their targets: the total expected against the total actual
 * (within 10%), and how many runs' actual cost fell inside the range the estimate stated (at least 8
 * of 10); beside them the median error per run, and ZDR's figure per 1,000 requests of each model
 * against what that model's answered requests cost.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DecisionsRequest } from '../../shared/schemas/decisions-request';
import type { EvalVariant } from '../../shared/schemas/evaluation';
import type { Question } from '../../shared/schemas/question';
import type { Core } from '../core';
import { estimateRun } from '../core/evaluations/estimate/estimate';
import { percentile } from '../core/evaluations/reports/metrics';
import { refinedExpectation, type Answered } from '../core/evaluations/estimate/refine';
import { SAMPLE_QUESTIONS, SAMPLE_ROWS } from '../core/samples/support-tickets';
import { pngWithRects } from '../test-support/images';
import { atMost, fmt, row, type BenchRow } from './report';
import { internalsOf, storageOf } from '../test-support/internals-of';

interface Case {
  name: string;
  questions: Record<string, Question>;
  rows: { id: string; state: unknown; expected: Record<string, unknown> }[];
  variants: EvalVariant[];
}

const WORDS = 'parcel invoice refund login outage billing crash export password subscription warehouse courier late damaged account feature'.split(' ');
/**
 * A deterministic text of `n` words for item i, numbered: the words repeat every 16 items, and a
 * dataset of repeated items would read its first question from the cache too, which no estimate
 * counts on (it counts an item's first question uncached).
 */
const text = (i: number, n: number) => `#${i} ${Array.from({ length: n }, (_, k) => WORDS[(i * 7 + k * 5) % WORDS.length]).join(' ')}`;

function textCases(): Case[] {
  const late: Record<string, Question> = { late: { type: 'noul', instructions: 'Did the parcel arrive late?' } };
  const mixed: Record<string, Question> = {
    topic: {
      type: 'choice',
      instructions: 'What is it about?',
      criteria: { billing: 'invoice refund', delivery: 'parcel courier', account: 'login password', other: null },
    },
    severity: { type: 'score', instructions: 'How severe is it?', criteria: ['none', 'minor', 'major', 'critical'] },
  };
  return [
    {
      name: 'support tickets (sample), 3 questions, 3 models',
      questions: SAMPLE_QUESTIONS,
      rows: SAMPLE_ROWS,
      variants: [{ model: 'sandbox/baseline-text' }, { model: 'sandbox/sharp-large' }, { model: 'sandbox/cheap-mini' }],
    },
    {
      name: '200 short texts, 1 question',
      questions: late,
      rows: Array.from({ length: 200 }, (_, i) => ({ id: `s${i}`, state: text(i, 8), expected: {} })),
      variants: [{ model: 'sandbox/baseline-text' }],
    },
    // Long states share a prefix past 1,024 tokens: the questions after the first are read from the cache.
    {
      name: '80 long texts (about 1,500 tokens), 2 questions',
      questions: mixed,
      rows: Array.from({ length: 80 }, (_, i) => ({ id: `l${i}`, state: text(i, 900), expected: {} })),
      variants: [{ model: 'sandbox/skewed-small' }, { model: 'sandbox/sharp-large' }],
    },
    {
      name: '120 JSON states, 2 questions, a decision model',
      questions: mixed,
      rows: Array.from({ length: 120 }, (_, i) => ({ id: `j${i}`, state: { subject: text(i, 4), body: text(i + 3, 40) }, expected: {} })),
      variants: [{ model: 'sandbox/decider' }, { model: 'sandbox/baseline-text' }],
    },
    {
      name: '150 texts of mixed length, 1 question',
      questions: late,
      rows: Array.from({ length: 150 }, (_, i) => ({ id: `m${i}`, state: text(i, 5 + ((i * 37) % 300)), expected: {} })),
      variants: [{ model: 'sandbox/cheap-mini' }, { model: 'sandbox/baseline-text' }],
    },
    {
      name: '300 short texts, 2 questions, the dear model and the cheap one',
      questions: mixed,
      rows: Array.from({ length: 300 }, (_, i) => ({ id: `d${i}`, state: text(i, 20), expected: {} })),
      variants: [{ model: 'sandbox/sharp-large' }, { model: 'sandbox/cheap-mini' }],
    },
    {
      name: '60 texts of about 400 tokens, 3 questions',
      questions: { ...late, ...mixed },
      rows: Array.from({ length: 60 }, (_, i) => ({ id: `f${i}`, state: text(i, 250), expected: {} })),
      variants: [{ model: 'sandbox/baseline-text' }],
    },
    {
      name: '100 texts, 1 question, the skewed model',
      questions: late,
      rows: Array.from({ length: 100 }, (_, i) => ({ id: `k${i}`, state: text(i, 30 + (i % 50)), expected: {} })),
      variants: [{ model: 'sandbox/skewed-small' }],
    },
    {
      name: '90 JSON states, 1 question, a decision model and the dear one',
      questions: late,
      rows: Array.from({ length: 90 }, (_, i) => ({ id: `v${i}`, state: { subject: text(i, 6), lines: [text(i + 1, 20), text(i + 2, 30)] }, expected: {} })),
      variants: [{ model: 'sandbox/decider' }, { model: 'sandbox/sharp-large' }],
    },
    {
      name: '250 texts of mixed length, 2 questions, three models',
      questions: mixed,
      rows: Array.from({ length: 250 }, (_, i) => ({ id: `x${i}`, state: text(i, 3 + ((i * 53) % 120)), expected: {} })),
      variants: [{ model: 'sandbox/cheap-mini' }, { model: 'sandbox/baseline-text' }, { model: 'sandbox/skewed-small' }],
    },
  ];
}

function boxCases(): Case[] {
  const card: Record<string, Question> = { card: { type: 'box', instructions: 'the blue card' } };
  const both: Record<string, Question> = { ...card, badge: { type: 'box', instructions: 'the small badge' } };
  const images = (prefix: string, count: number, width: number, height: number) =>
    Array.from({ length: count }, (_, i) => ({
      id: `${prefix}${i}.png`,
      state: [
        {
          type: 'image_url',
          image_url: {
            url: pngWithRects(width, height, [
              { x: Math.floor(width * 0.1) + i, y: Math.floor(height * 0.2), w: Math.floor(width / 3), h: Math.floor(height / 4) },
              { x: Math.floor(width * 0.7), y: Math.floor(height * 0.6), w: Math.floor(width / 8), h: Math.floor(height / 8) },
            ]),
          },
        },
      ],
      expected: {},
    }));
  /** A case of `count` images `width` × `height` under one or both questions, with a decision model beside the vision model or not; its name says so. */
  const imageCase = (prefix: string, count: number, width: number, height: number, asked: 'card' | 'both', decider = false): Case => ({
    name: `${count} images ${width} × ${height}, ${asked === 'card' ? '1 question' : '2 questions'}${decider ? ', a decision model beside' : ''}`,
    questions: asked === 'card' ? card : both,
    rows: images(prefix, count, width, height),
    variants: [{ model: 'sandbox/baseline-vision' }, ...(decider ? [{ model: 'sandbox/decider' }] : [])],
  });
  return [
    // Enough requests each that routing's draw between endpoints evens out (with 12, all of them went to the cheaper one one run in seven).
    imageCase('a', 60, 400, 300, 'card'),
    imageCase('b', 80, 1200, 900, 'both'),
    imageCase('c', 24, 2000, 1500, 'both'),
    imageCase('d', 40, 640, 480, 'both', true),
    imageCase('e', 50, 800, 600, 'card'),
    imageCase('f', 100, 320, 240, 'both'),
    imageCase('g', 30, 1600, 1200, 'card'),
    imageCase('h', 16, 3000, 2000, 'card'),
    imageCase('i', 60, 1024, 768, 'both'),
    imageCase('j', 45, 500, 500, 'card', true),
  ];
}

/** Expected (before the run, and refined from its first five answered items) and actual cost of one case. */
async function measure(core: Core, c: Case): Promise<Measured> {
  const dataset = await core.datasets.create(c.name, c.rows as never);
  const request = { model: c.variants[0]!.model, state: '', questions: c.questions } as DecisionsRequest;
  const estimate = await estimateRun(internalsOf(core), { request, dataset_id: dataset.id, variants: c.variants, concurrency: 4 });
  if (estimate.cost_usd === null) throw new Error(`${c.name}: no expected cost (${estimate.per_variant.map((v) => v.cost_note).join('; ')})`);
  const started = await core.evalRuns.start({
    request,
    dataset_id: dataset.id,
    variants: c.variants,
    concurrency: 4,
    estimate: { expected_usd: estimate.cost_usd, worst_usd: estimate.worst_usd, input_tokens: estimate.input_tokens, output_tokens: estimate.output_tokens },
  });
  const done = await core.evalRuns.wait(started.id);
  if (done.status !== 'done') throw new Error(`${c.name}: the run ended ${done.status} (${done.message ?? ''})`);
  // The refined expectation as the screen showed it once five items were answered (estimate/refine.ts, runExpectation, over those five).
  const firstFive = (await storageOf(core).evalResults.results(started.id))
    .filter((r) => r.ok)
    .sort((a, b) => (a.answered_at! < b.answered_at! ? -1 : a.answered_at! > b.answered_at! ? 1 : 0))
    .slice(0, 5);
  const first: Answered[] = [];
  for (const r of firstFive) {
    const chars = JSON.stringify((await core.datasets.item(dataset.id, r.position)).state).length;
    const sum = first.find((a) => a.variant === r.variant) ?? first[first.push({ variant: r.variant, n: 0, tokens: 0, chars: 0 }) - 1]!;
    sum.n += 1;
    sum.tokens += r.input_tokens + r.output_tokens;
    sum.chars += chars;
  }
  const refined = refinedExpectation(
    estimate.per_variant.map((v) => ({ expected_usd: v.cost_usd, fit: v.tokens_fit })),
    first,
  );
  if (refined === null) throw new Error(`${c.name}: no refined expectation from the first five answered items`);
  const results = await storageOf(core).evalResults.results(started.id);
  const perModel = c.variants.map((v, i) => {
    const answered = results.filter((r) => r.ok && r.variant === i);
    return { model: v.model, questions: Object.keys(c.questions).length, requests: answered.length, cost: answered.reduce((s, r) => s + (r.cost ?? 0), 0) };
  });
  return { expected: estimate.cost_usd, low: estimate.cost_low_usd, high: estimate.cost_high_usd, refined, actual: done.spent_usd, perModel };
}

interface Measured {
  expected: number;
  low: number | null;
  high: number | null;
  refined: number;
  actual: number;
  perModel: { model: string; questions: number; requests: number; cost: number }[];
}

/**
 * Half the width of the total's 95% range that the runs' own stated ranges imply: each range taken
 * as 95% of a normal spread (its width is 2 × 1.96 standard deviations), the runs' spreads added as
 * independent ones. What chance alone can move the total by, however right the estimates are; a
 * total off by less than this says nothing against them, one off by more says they are off.
 */
function totalSpread(results: readonly Measured[]): number | null {
  if (results.some((r) => r.low === null || r.high === null)) return null;
  const variance = results.reduce((v, r) => v + ((r.high! - r.low!) / (2 * 1.96)) ** 2, 0);
  return 1.96 * Math.sqrt(variance);
}

const error = (x: { expected: number; actual: number }) => Math.abs(x.expected - x.actual) / x.actual;
const pct = (v: number) => `${fmt(100 * v, 1)}%`;

/**
 * The simulated providers answer at a quarter of their profiles' latency and token rate (30 to 160 ms
 * a call): a provider's time, not this machine's own work, sets a run's pace, as it does for a user,
 * and a run still goes four times as fast as it would. At once (0), an item's time was this
 * machine's noise, and the pace fitted on one run was off by up to fourteen times on the next.
 */
const TIME_SCALE = 0.25;

/** A core of its own on the simulated fleet, in a fresh data directory. */
async function fleetCore(prefix: string, seed: number, failures: boolean): Promise<{ core: Core; dataDir: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  const core = await benchCore(dataDir, { sandbox: { seed, timeScale: TIME_SCALE, failures } });
  return { core, dataDir };
}

/**
 * Fleets the cases run on, each a fresh one with its own seed. With failures on, when a fault falls
 * moves a run's cost by more than the estimate's error does (a fault sends the rest of a short run to
 * a dearer endpoint): the ten runs' total then moved ± 17% by chance alone, by their own ranges, and
 * the 80 long texts on the dear model carried three fifths of it. A 10% target on such a total says
 * whether one fault came early, not whether the estimate is right; over three fleets' runs chance
 * moves the total about √3 times less. With failures off one fleet: its total moves ± 4 to 5%.
 */
const SEEDS = { on: [25, 26, 27], off: [25] };

/** Every case estimated and run on each fleet; the per-case figures by kind, each case named with its fleet's seed when there are several. */
async function measureAll(failures: boolean): Promise<{ kind: string; results: (Measured & { name: string })[] }[]> {
  const seeds = failures ? SEEDS.on : SEEDS.off;
  const out = [
    { kind: 'Evaluations', cases: textCases(), results: [] as (Measured & { name: string })[] },
    { kind: 'Boxes', cases: boxCases(), results: [] as (Measured & { name: string })[] },
  ];
  for (const seed of seeds) {
    const { core, dataDir } = await fleetCore('verdict-bench-estimates-', seed, failures);
    try {
      for (const kind of out)
        for (const c of kind.cases) kind.results.push({ name: seeds.length > 1 ? `${c.name} (fleet seed ${seed})` : c.name, ...(await measure(core, c)) });
    } finally {
      await core.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  return out.map(({ kind, results }) => ({ kind, results }));
}

interface ZdrCheck {
  model: string;
  figure: number;
  measured: number;
}

/**
 * ZDR's "per 1,000 of your requests, ZDR only" against what the same requests then cost with ZDR
 * required: on a fresh fleet with its failures on, per model whose ZDR route differs from its
 * route now, 1,000 one-question requests sent as routed now (the traffic the figure is priced on),
 * the figure read, then the same 1,000 sent with `provider.zdr`. As many as the figure is for: with
 * faults on, what a request costs depends on how many were sent before it (a fault sends the next
 * 30 s to a dearer endpoint, until that one fails too), so a shorter run costs more a request.
 */
async function zdrChecks(): Promise<ZdrCheck[]> {
  const { core, dataDir } = await fleetCore('verdict-bench-zdr-', 26, true);
  try {
    const out: ZdrCheck[] = [];
    const questions: Record<string, Question> = { late: { type: 'noul', instructions: 'Did the parcel arrive late?' } };
    const rows = Array.from({ length: 1000 }, (_, i) => ({ id: `z${i}`, state: text(i, 12 + (i % 40)), expected: {} }));
    const dataset = await core.datasets.create('zdr traffic', rows as never);
    for (const model of ['sandbox/baseline-text', 'sandbox/cheap-mini', 'sandbox/skewed-small', 'sandbox/decider']) {
      const request = { model, state: '', questions } as DecisionsRequest;
      const sent = async (variant: EvalVariant) => {
        const run = await core.evalRuns.start({ request, dataset_id: dataset.id, variants: [variant], concurrency: 4 });
        const done = await core.evalRuns.wait(run.id);
        const answered = (await storageOf(core).evalResults.results(run.id)).filter((r) => r.ok);
        if (done.status !== 'done' || answered.length === 0) throw new Error(`ZDR check, ${model}: the run ended ${done.status}`);
        return (1000 * answered.reduce((sum, r) => sum + (r.cost ?? 0), 0)) / answered.length;
      };
      await sent({ model });
      const figure = (await core.handlers['usage.zdr_cost']({ typed: null })).find((c) => c.model === model)?.zdr?.usd;
      if (figure === undefined) throw new Error(`ZDR check, ${model}: no ZDR figure`);
      out.push({ model, figure, measured: await sent({ model, provider: { zdr: true } }) });
    }
    return out;
  } finally {
    await core.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * With the fleet's failures on, an endpoint that fails once is left out of load balancing for 30 s,
 * which sends the rest of a fast run to dearer endpoints at a moment chance picks: the same run
 * costs more or less from one try to the next. The estimate walks the run through routing's planner
 * with each endpoint's fault rate and states a likely range; the targets hold it to both.
 */
export async function estimateBench(): Promise<{ rows: BenchRow[]; detail: string }> {
  const rows: BenchRow[] = [];
  const lines: string[] = [];
  for (const failures of [true, false]) {
    const fleet = failures ? 'with its scripted failures and 429s on' : 'with its scripted failures off';
    const kinds = await measureAll(failures);
    const fleets = (failures ? SEEDS.on : SEEDS.off).length;
    const zdr = failures ? await zdrChecks() : [];
    for (const { kind, results } of kinds) {
      const expected = results.reduce((s, r) => s + r.expected, 0);
      const actual = results.reduce((s, r) => s + r.actual, 0);
      const total = Math.abs(expected - actual) / actual;
      // A range's end and a run's actual cost are the same sum added in another order when the run
      // went as the walk's end did (every request on the dearest endpoint): equal to a part in 10⁹.
      const inside = results.filter((r) => r.low !== null && r.high !== null && r.actual >= r.low * (1 - 1e-9) && r.actual <= r.high * (1 + 1e-9)).length;
      const luck = totalSpread(results);
      const median = percentile(results.map(error), 0.5)!;
      const refined = percentile(
        results.map((r) => error({ expected: r.refined, actual: r.actual })),
        0.5,
      )!;
      rows.push(
        row(
          `${kind} runs, fleet ${fleet}: total expected cost against total actual, over ${results.length} runs (${results.length / fleets} datasets${fleets > 1 ? ` on each of ${fleets} fleets` : ''})`,
          `${pct(total)} ($${expected.toPrecision(3)} expected, $${actual.toPrecision(3)} spent)`,
          atMost(10, '%', 100 * total),
        ),
        row(
          `${kind} runs, fleet ${fleet}: how far chance alone moves the total, by the runs' own stated ranges (95%, runs taken as independent)`,
          luck === null ? 'unknown (a run without a range)' : `± ${pct(luck / expected)}`,
        ),
        row(`${kind} runs, fleet ${fleet}: runs whose actual cost fell inside the estimate's stated range`, `${inside} of ${results.length}`, {
          text: `≥ ${Math.ceil(0.8 * results.length)} of ${results.length}`,
          met: inside >= Math.ceil(0.8 * results.length),
        }),
        row(`${kind} runs, fleet ${fleet}: median error of one run's expected cost (each run: ${results.map((r) => pct(error(r))).join(', ')})`, pct(median)),
        row(`${kind} runs, fleet ${fleet}: the same, refined from the first five answered items`, pct(refined)),
      );
      for (const r of results)
        lines.push(
          `${kind}, ${failures ? 'failures on' : 'failures off'}, ${r.name}: expected $${r.expected.toPrecision(3)} (likely $${r.low?.toPrecision(3)}–$${r.high?.toPrecision(3)}), refined $${r.refined.toPrecision(3)}, actual $${r.actual.toPrecision(3)} (${pct(error(r))} off)`,
        );
    }
    for (const z of zdr) {
      const off = Math.abs(z.figure - z.measured) / z.measured;
      rows.push(
        row(
          `ZDR screen, fleet ${fleet}: ${z.model}'s cost per 1,000 requests with ZDR required, against 1,000 × what the same requests then cost with ZDR required`,
          `${pct(off)} ($${z.figure.toPrecision(3)} against $${z.measured.toPrecision(3)})`,
          atMost(10, '%', 100 * off),
        ),
      );
    }
  }
  return {
    rows,
    detail: `Expected cost against actual: each dataset estimated, then run on the simulated providers (seeds ${SEEDS.on.join(', ')} with failures on, ${SEEDS.off.join(', ')} with them off; answering at a quarter of their profiles' latency and token rate), concurrency 4. ${lines.join('; ')}.`,
  };
}
