/**
 * How close the expected cost of a run is to what the run then costs, on the simulated fleet
 * (routing picks endpoints at random by price): Evaluations runs over varied text datasets, and
 * Boxes runs over varied images. The figure is the median over the datasets of
 * |expected − actual| / actual, against the 10% target with the fleet's scripted failures off, and
 * shown without a target with them on (see estimateBench); beside each, the expectation refined
 * from the first five answered items.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DecisionsRequest } from '../../shared/schemas/decisions-request';
import type { EvalVariant } from '../../shared/schemas/evaluation';
import type { Question } from '../../shared/schemas/question';
import { createCore } from '../core/create-core';
import type { Core } from '../core/core';
import { estimateRun } from '../core/evaluations/estimate/estimate';
import { percentile } from '../core/evaluations/reports/metrics';
import { refinedExpectation, type Answered } from '../core/evaluations/estimate/refine';
import { FileSecretStore, ownerOnlyFileCodec } from '../core/keys/secret-store';
import { SAMPLE_QUESTIONS, SAMPLE_ROWS } from '../core/samples/support-tickets';
import { pngWithRects } from '../test-support/images';
import { atMost, fmt, row, type BenchRow } from './report';

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
  return [
    // Enough requests each that routing's draw between endpoints evens out (with 12, all of them went to the cheaper one one run in seven).
    { name: '60 images 400 × 300, 1 question', questions: card, rows: images('a', 60, 400, 300), variants: [{ model: 'sandbox/baseline-vision' }] },
    { name: '80 images 1200 × 900, 2 questions', questions: both, rows: images('b', 80, 1200, 900), variants: [{ model: 'sandbox/baseline-vision' }] },
    { name: '24 images 2000 × 1500, 2 questions', questions: both, rows: images('c', 24, 2000, 1500), variants: [{ model: 'sandbox/baseline-vision' }] },
    {
      name: '40 images 640 × 480, 2 questions, a decision model beside',
      questions: both,
      rows: images('d', 40, 640, 480),
      variants: [{ model: 'sandbox/baseline-vision' }, { model: 'sandbox/decider' }],
    },
    { name: '50 images 800 × 600, 1 question', questions: card, rows: images('e', 50, 800, 600), variants: [{ model: 'sandbox/baseline-vision' }] },
  ];
}

/** Expected (before the run, and refined from its first five answered items) and actual cost of one case. */
async function measure(core: Core, c: Case): Promise<{ expected: number; refined: number; actual: number }> {
  const dataset = await core.datasets.create(c.name, c.rows as never);
  const request = { model: c.variants[0]!.model, state: '', questions: c.questions } as DecisionsRequest;
  const estimate = await estimateRun(core, { request, dataset_id: dataset.id, variants: c.variants });
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
  const firstFive = (await core.storage.evalResults.results(started.id))
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
  return { expected: estimate.cost_usd, refined, actual: done.spent_usd };
}

const error = (x: { expected: number; actual: number }) => Math.abs(x.expected - x.actual) / x.actual;
const pct = (v: number) => `${fmt(100 * v, 1)}%`;

/** Every case estimated and run on one fleet; the median error per kind, and the per-case figures. */
async function measureAll(failures: boolean): Promise<{ kind: string; results: { name: string; expected: number; refined: number; actual: number }[] }[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'verdict-bench-estimates-'));
  const core = await createCore({
    dataDir,
    secrets: new FileSecretStore(join(dataDir, 'secrets.json'), ownerOnlyFileCodec),
    host: 'browser',
    version: 'bench',
    discovery: false,
    sandbox: { seed: 25, timeScale: 0, failures },
  });
  try {
    const out = [];
    for (const [kind, cases] of [
      ['Evaluations', textCases()],
      ['Boxes', boxCases()],
    ] as const) {
      const results = [];
      for (const c of cases) results.push({ name: c.name, ...(await measure(core, c)) });
      out.push({ kind, results });
    }
    return out;
  } finally {
    await core.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The target is held on the fleet as routing plans for it (its scripted failures off): what an
 * estimate can know before a run. With the failures on, an endpoint that fails once is left out of
 * load balancing for 30 s, which sends the rest of a fast run to dearer endpoints at a moment
 * chance picks; the same run then costs from half to three times as much from one try to the next,
 * so that figure is shown beside it, without a target.
 */
export async function estimateBench(): Promise<{ rows: BenchRow[]; detail: string }> {
  const rows: BenchRow[] = [];
  const lines: string[] = [];
  for (const failures of [false, true]) {
    const fleet = failures ? 'with its scripted failures and 429s on' : 'as routing plans for it (scripted failures off)';
    for (const { kind, results } of await measureAll(failures)) {
      const median = percentile(results.map(error), 0.5)!;
      const refined = percentile(
        results.map((r) => error({ expected: r.refined, actual: r.actual })),
        0.5,
      )!;
      const figure = `${pct(median)} (${results.map((r) => pct(error(r))).join(', ')})`;
      const measure = `${kind} runs: expected cost against actual, simulated fleet ${fleet} (median of ${results.length} datasets)`;
      rows.push(
        failures ? row(measure, figure) : row(measure, figure, atMost(10, '%', 100 * median)),
        row(`${kind} runs, ${failures ? 'failures on' : 'failures off'}: the same, refined from the first five answered items`, pct(refined)),
      );
      for (const r of results)
        lines.push(
          `${kind}, ${failures ? 'failures on' : 'failures off'}, ${r.name}: expected $${r.expected.toPrecision(3)}, refined $${r.refined.toPrecision(3)}, actual $${r.actual.toPrecision(3)} (${pct(error(r))} off)`,
        );
    }
  }
  return {
    rows,
    detail: `Expected cost against actual: each dataset estimated, then run on the simulated providers (seed 25, answering at once), concurrency 4. ${lines.join('; ')}.`,
  };
}
