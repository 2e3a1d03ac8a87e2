import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEvalCommand, reportSchema, runCommand } from '../test-support/eval-command';
import { LogprobProvider, logprobCatalog } from '../test-support/logprob-provider';
import { tempDir } from '../test-support/temp-core';

let CLI = '';

const SET = {
  model: 'lp/alpha',
  state: 'ignored',
  questions: {
    late: { type: 'noul', instructions: 'Did the parcel come late?' },
    mood: { type: 'choice', instructions: 'Which mood is it?', criteria: { happy: null, sad: null, meh: null } },
    stars: { type: 'score', instructions: 'How many stars?', criteria: ['none', 'some', 'many'] },
  },
};
const N = 12;
const EXPECTED = Array.from({ length: N }, (_, i) => ({ late: i % 3 !== 0, mood: ['happy', 'sad', 'meh'][i % 3]!, stars: i % 3 }));

/** The probabilities the provider gives, per model and item: chosen here, so the report can be computed from them alone. */
const NOUL: Record<string, number[]> = {
  alpha: [0.9, 0.8, 0.3, 0.65, 0.15, 0.55, 0.95, 0.4, 0.7, 0.2, 0.85, 0.6],
  beta: [0.5, 0.99, 0.97, 0.1, 0.95, 0.02, 0.6, 0.9, 0.45, 0.8, 0.3, 0.99],
};
const CHOICE = (model: string, i: number): [number, number, number] => {
  const sure = model === 'alpha' ? [0.7, 0.2, 0.1] : [0.4, 0.35, 0.25];
  const right = (i + (i % 4 === 2 ? 1 : 0)) % 3;
  const out: [number, number, number] = [0, 0, 0];
  out[right] = sure[0]!;
  out[(right + 1) % 3] = sure[1]!;
  out[(right + 2) % 3] = sure[2]!;
  return out;
};
const SCORE = (model: string, i: number): [number, number, number] =>
  model === 'alpha'
    ? ([
        [0.8, 0.15, 0.05],
        [0.1, 0.7, 0.2],
        [0.05, 0.25, 0.7],
      ][i % 3] as [number, number, number])
    : [0.2, 0.5, 0.3];

function labelsFor(model: string, text: string): Record<string, number> {
  const i = Number(/item-(\d+)/.exec(text)![1]);
  if (text.includes('Did the parcel come late?')) return { Yes: NOUL[model]![i]!, No: Number((1 - NOUL[model]![i]!).toFixed(6)) };
  if (text.includes('Which mood is it?')) {
    const [a, b, c] = CHOICE(model, i);
    return { A: a, B: b, C: c };
  }
  const [z, o, t] = SCORE(model, i);
  return { '0': z, '1': o, '2': t };
}

// ---- The expected report, computed here from the chosen probabilities alone ----
const clip = (p: number) => Math.min(1 - 1e-15, Math.max(1e-15, p));
const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
function ece(points: { c: number; ok: boolean }[]) {
  const bins = new Map<number, { c: number; ok: number; n: number }>();
  for (const p of points) {
    const b = Math.min(9, Math.floor(p.c * 10));
    const bin = bins.get(b) ?? { c: 0, ok: 0, n: 0 };
    bin.c += p.c;
    bin.ok += Number(p.ok);
    bin.n += 1;
    bins.set(b, bin);
  }
  const reliability = [...bins.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([b, v]) => ({ lower: b / 10, upper: (b + 1) / 10, count: v.n, confidence: v.c / v.n, accuracy: v.ok / v.n }));
  return { ece: reliability.reduce((s, r) => s + (r.count / points.length) * Math.abs(r.accuracy - r.confidence), 0), reliability };
}
function expectedNoul(model: string) {
  const p = NOUL[model]!;
  const y = EXPECTED.map((e) => e.late);
  let pairs = 0;
  let wins = 0;
  for (let i = 0; i < N; i += 1) {
    for (let j = 0; j < N; j += 1) {
      if (!y[i] || y[j]) continue;
      pairs += 1;
      wins += p[i]! > p[j]! ? 1 : p[i] === p[j] ? 0.5 : 0;
    }
  }
  return {
    type: 'noul',
    n: N,
    accuracy: avg(p.map((v, i) => Number(v >= 0.5 === y[i]))),
    brier: avg(p.map((v, i) => (v - Number(y[i])) ** 2)),
    log_loss: -avg(p.map((v, i) => (y[i] ? Math.log(clip(v)) : Math.log(1 - clip(v))))),
    auroc: wins / pairs,
    ...ece(p.map((v, i) => ({ c: Math.max(v, 1 - v), ok: v >= 0.5 === y[i] }))),
  };
}
function expectedChoice(model: string) {
  const options = ['happy', 'sad', 'meh'];
  const rows = EXPECTED.map((e, i) => {
    const probs = CHOICE(model, i);
    const predicted = options[probs.indexOf(Math.max(...probs))]!;
    return { probs, predicted, expected: e.mood };
  });
  const confusion: Record<string, Record<string, number>> = {};
  for (const r of rows) (confusion[r.expected] ??= {})[r.predicted] = (confusion[r.expected]?.[r.predicted] ?? 0) + 1;
  const f1 = options.map((o) => {
    const tp = rows.filter((r) => r.expected === o && r.predicted === o).length;
    const fp = rows.filter((r) => r.expected !== o && r.predicted === o).length;
    const fn = rows.filter((r) => r.expected === o && r.predicted !== o).length;
    return (2 * tp) / (2 * tp + fp + fn);
  });
  return {
    type: 'choice',
    n: N,
    accuracy: avg(rows.map((r) => Number(r.predicted === r.expected))),
    macro_f1: avg(f1),
    brier: avg(rows.map((r) => options.reduce((s, o, k) => s + (r.probs[k]! - Number(o === r.expected)) ** 2, 0))),
    log_loss: -avg(rows.map((r) => Math.log(r.probs[options.indexOf(r.expected)]!))),
    ...ece(rows.map((r) => ({ c: Math.max(...r.probs), ok: r.predicted === r.expected }))),
    confusion,
  };
}
function expectedScore(model: string) {
  const rows = EXPECTED.map((e, i) => {
    const probs = SCORE(model, i);
    return { s: probs[1]! + 2 * probs[2]!, level: probs.indexOf(Math.max(...probs)), e: e.stars };
  });
  // QWK over 3 levels: weights (i − j)² / 4, expected counts from the two histograms.
  const O = [0, 1, 2].map((a) => [0, 1, 2].map((b) => rows.filter((r) => r.e === a && r.level === b).length));
  const he = [0, 1, 2].map((a) => rows.filter((r) => r.e === a).length);
  const hl = [0, 1, 2].map((b) => rows.filter((r) => r.level === b).length);
  let num = 0;
  let den = 0;
  for (let a = 0; a < 3; a += 1) {
    for (let b = 0; b < 3; b += 1) {
      num += ((a - b) ** 2 / 4) * O[a]![b]!;
      den += ((a - b) ** 2 / 4) * ((he[a]! * hl[b]!) / N);
    }
  }
  return {
    type: 'score',
    n: N,
    mae: avg(rows.map((r) => Math.abs(r.s - r.e))),
    exact: avg(rows.map((r) => Number(r.level === r.e))),
    qwk: den === 0 ? null : 1 - num / den,
  };
}

/** Each item's answer as label probabilities, the predicted label and the expected one, per question. */
function calibrationPoints(model: string, question: 'late' | 'mood' | 'stars') {
  return EXPECTED.map((e, i) => {
    if (question === 'late') {
      const p = NOUL[model]![i]!;
      return { probs: [p, 1 - p], predicted: p >= 0.5 ? 0 : 1, expected: e.late ? 0 : 1 };
    }
    const probs = question === 'mood' ? CHOICE(model, i) : SCORE(model, i);
    const predicted = probs.indexOf(Math.max(...probs));
    return { probs: [...probs], predicted, expected: question === 'mood' ? ['happy', 'sad', 'meh'].indexOf(e.mood) : e.stars };
  });
}
/** Temperature scaling written out: p'_k = p_k^(1/T) / Σ_j p_j^(1/T). */
const scaled = (probs: number[], t: number) => {
  const w = probs.map((p) => (p > 0 ? p ** (1 / t) : 0));
  const total = w.reduce((a, b) => a + b, 0);
  return w.map((x) => x / total);
};
const lossAt = (pts: ReturnType<typeof calibrationPoints>, t: number) => -avg(pts.map((x) => Math.log(clip(scaled(x.probs, t)[x.expected]!))));
const eceAt = (pts: ReturnType<typeof calibrationPoints>, t: number) =>
  ece(pts.map((x) => ({ c: scaled(x.probs, t)[x.predicted]!, ok: x.predicted === x.expected }))).ece;
/** The fit by brute force: 20,001 temperatures evenly spaced in ln T over [0.05, 20]. */
function gridTemperature(pts: ReturnType<typeof calibrationPoints>): number {
  let best = { t: 1, loss: Infinity };
  for (let k = 0; k <= 20_000; k += 1) {
    const t = Math.exp(Math.log(0.05) + (k / 20_000) * Math.log(400));
    const loss = lossAt(pts, t);
    if (loss < best.loss) best = { t, loss };
  }
  return best.t;
}

describe('npm run eval', () => {
  const dir = tempDir();
  let provider: LogprobProvider;

  beforeAll(async () => {
    CLI = await buildEvalCommand('eval');
    provider = await new LogprobProvider(({ model, text }) => ({ labels: labelsFor(model, text) })).start();
    mkdirSync(join(dir.path, 'data'));
    writeFileSync(join(dir.path, 'data', 'catalog.json'), JSON.stringify(logprobCatalog(provider.url, ['alpha', 'beta'])));
    writeFileSync(join(dir.path, 'set.json'), JSON.stringify(SET));
    writeFileSync(
      join(dir.path, 'data.jsonl'),
      EXPECTED.map((e, i) => JSON.stringify({ id: `i${i}`, state: `Review item-${i}: the parcel.`, expected: e })).join('\n'),
    );
  }, 60_000);
  afterAll(async () => {
    await provider.close();
    dir.cleanup();
  });

  const run = (args: string[]) => runCommand(CLI, ['--data-dir', join(dir.path, 'data'), ...args]);

  it('reports what the chosen logprobs imply, for two models', async () => {
    const out = await run([
      '--set',
      join(dir.path, 'set.json'),
      '--dataset',
      join(dir.path, 'data.jsonl'),
      '--model',
      'lp/alpha,lp/beta',
      '--report',
      join(dir.path, 'report.json'),
      '--results',
      join(dir.path, 'results.jsonl'),
      '--concurrency',
      '3',
    ]);
    expect(out.stderr).toMatch(/24 requests \(12 items × 2 models\); estimate: .*about \$/);
    expect(out.stderr).toMatch(/lp\/beta: one request can cost up to \$0\.\d+ \(on item i1\d, the largest in the dataset\)/);
    expect(out.code, out.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(dir.path, 'report.json'), 'utf8')) as { dataset: { items: number }; models: Record<string, unknown>[] };
    // The whole report against the schema docs publish (its current version): no field it lacks, none it requires missing.
    const { schema, validate } = reportSchema();
    expect(validate(report), JSON.stringify(validate.errors, null, 1)).toBe(true);
    expect(report).toMatchObject({ report_version: 1, outcome: 'pass', exit_code: 0, gates: [], baseline: null, threshold: 0.5 });
    expect(report.dataset).toEqual({ items: N });
    expect(report.models.map((m) => m['model'])).toEqual(['lp/alpha', 'lp/beta']);
    for (const [index, model] of ['alpha', 'beta'].entries()) {
      const m = report.models[index] as { questions: Record<string, Record<string, unknown>>; [k: string]: unknown };
      // 3 calls an item of 100 prompt and 1 completion tokens at $1e-6 and $2e-6 a token.
      expect(m).toMatchObject({ items: N, failed: 0, cost_unknown: 0, input_tokens: 300 * N, output_tokens: 3 * N });
      expect(m['cost_usd']).toBeCloseTo(3 * N * (100e-6 + 2e-6), 12);
      const latency = m['latency_ms'] as { p50: number; p95: number };
      expect(latency.p50).toBeLessThanOrEqual(latency.p95);
      const { calibration: noulCal, ...noul } = m.questions['late']!;
      const { calibration: choiceCal, ...choice } = m.questions['mood']!;
      const { calibration: scoreCal, ...score } = m.questions['stars']!;
      // Each question has exactly the fields of its kind in the schema.
      for (const [question, kind] of [
        ['late', 'noulQuestion'],
        ['mood', 'choiceQuestion'],
        ['stars', 'scoreQuestion'],
      ] as const)
        expect(Object.keys(m.questions[question]!).sort(), question).toEqual(Object.keys(schema.$defs[kind]!.properties!).sort());
      expectClose(noul, expectedNoul(model));
      expectClose(choice, expectedChoice(model));
      expectClose(score, expectedScore(model));
      for (const [question, c] of [
        ['late', noulCal],
        ['mood', choiceCal],
        ['stars', scoreCal],
      ] as const) {
        // Fitted on items at even positions, judged on the odd ones.
        const points = calibrationPoints(model, question);
        const fit = points.filter((_, i) => i % 2 === 0);
        const held = points.filter((_, i) => i % 2 === 1);
        const reported = c as { temperature: number; ece_before: number; ece_after: number; log_loss_before: number; log_loss_after: number };
        expect(Math.abs(Math.log(reported.temperature / gridTemperature(fit))), `${model} ${question} temperature`).toBeLessThan(2e-3);
        expect(reported.ece_before).toBeCloseTo(eceAt(held, 1), 9);
        expect(reported.log_loss_before).toBeCloseTo(lossAt(held, 1), 9);
        expect(reported.ece_after).toBeCloseTo(eceAt(held, reported.temperature), 9);
        expect(reported.log_loss_after).toBeCloseTo(lossAt(held, reported.temperature), 9);
      }
    }
    expect(out.stdout).toMatch(/lp\/alpha\s+late\s+12\s+acc/);
    const lines = readFileSync(join(dir.path, 'results.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; model: string; usage: { cost: number } });
    expect(lines).toHaveLength(2 * N);
    expect(new Set(lines.map((l) => `${l.id} ${l.model}`)).size).toBe(2 * N);
    // Every item was sent once per model and question.
    expect(provider.received).toHaveLength(2 * N * 3);
  }, 60_000);

  it("refuses a budget below one request's worst case (exit 2, nothing sent), and exits 1 when the budget stops the run, with the report of what was done", async () => {
    const before = provider.received.length;
    const args = [
      '--set',
      join(dir.path, 'set.json'),
      '--dataset',
      join(dir.path, 'data.jsonl'),
      '--model',
      'lp/alpha',
      '--report',
      join(dir.path, 'budget.json'),
    ];
    const refused = await run([...args, '--budget', '0.000001']);
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toMatch(/lp\/alpha: one request can cost up to \$0\.\d+ \(on item i1\d, the largest in the dataset\)/);
    const smallest = /Nothing was run; use --budget \$(0\.\d+) or more, or no --budget\./.exec(refused.stderr)?.[1];
    expect(refused.stderr).toMatch(
      /--budget \$0\.000001 is below what one request of lp\/alpha can cost at worst \(\$0\.\d+\), which a budget holds before sending it/,
    );
    expect(smallest, refused.stderr).toBeDefined();
    expect(refused.stderr).toContain(`Smallest budget that lets every model send a request: $${smallest}`);
    expect(provider.received.length).toBe(before);

    // At the smallest budget the first request is admitted; the next one's worst case no longer fits beside it.
    const out = await run([...args, '--budget', smallest!, '--fail-under', 'late.accuracy=0.1', '--junit', join(dir.path, 'budget.xml')]);
    expect(out.code).toBe(1);
    expect(out.stderr).toContain(`(${N} items × 1 model)`);
    expect(out.stderr).toMatch(
      /did not complete: budget \(Stopped before the budget of \$0\.\d+ would be exceeded: \$[\d.]+ spent; the next request could cost up to \$0\.\d+ if every endpoint of its route were tried with the longest replies, more than the \$0\.\d+ left\)/,
    );
    // One item, three questions.
    expect(provider.received.length).toBe(before + 3);
    expect(JSON.parse(readFileSync(join(dir.path, 'budget.json'), 'utf8'))).toMatchObject({
      dataset: { items: N },
      models: [{ model: 'lp/alpha', items: 1 }],
      outcome: 'incomplete',
      exit_code: 1,
    });
    // A run that could not complete is an error in JUnit, whatever its thresholds.
    const junit = readFileSync(join(dir.path, 'budget.xml'), 'utf8');
    expect(junit).toMatch(
      /<testcase classname="verdict\.run" name="run completed">\s*<error message="The run did not complete: budget \(Stopped before the budget/,
    );
    expect(junit).toMatch(/<testcase classname="verdict\.lp\/alpha\.late" name="late\.accuracy &gt;= 0\.1">/);
  }, 60_000);

  it('prints a cascade curve between two models and the threshold a target picks, worked out by hand from the chosen P(true)', async () => {
    // late: alpha right on items 1, 5, 8, 9, 10, 11; beta on 1, 2, 3, 4, 7, 11 (6 of 12 each). Escalating
    // an item changes the count by beta's mark − alpha's: +1 for 2, 3, 4, 7; −1 for 5, 8, 9, 10; 0 else.
    // Bands widen by |p − 0.5| of alpha's P(true): 0.05 (item 5) → 5, 0.1 (7, 11) → 6, 0.15 (3) → 7 = 58.3%
    // at 4 of 12 escalated, 0.2 (2, 8) → 7 with 6 escalated, then no higher. A request (3 questions) costs
    // 3 × (100 × $1e-6 + 1 × $2e-6) = $0.000306 on each model: the cascade at 0.15 costs $0.000306 × 16/12.
    const args = [
      '--set',
      join(dir.path, 'set.json'),
      '--dataset',
      join(dir.path, 'data.jsonl'),
      '--cascade',
      'lp/alpha,lp/beta',
      '--cascade-question',
      'late',
    ];
    const out = await run([...args, '--target-accuracy', '0.55']);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stderr).toContain('(12 items × 2 models)');
    expect(out.stdout).toContain('Cascade lp/alpha → lp/beta: probabilityBetween on "late"; accuracy over 12 items both models answered');
    expect(out.stdout).toMatch(/lp\/alpha alone\s+50\.0%\s+\$0\.000306/);
    expect(out.stdout).toMatch(/lp\/beta alone\s+50\.0%\s+\$0\.000306/);
    const chosen = /Threshold ([\d.]+): 58\.3% at \$0\.000408 per item, 33\.3% escalated\nCondition: (.*)\n/.exec(out.stdout);
    expect(chosen, out.stdout).not.toBeNull();
    expect(Number(chosen![1])).toBeCloseTo(0.15, 6);
    const condition = JSON.parse(chosen![2]!) as { question: string; probabilityBetween: [number, number] };
    expect(condition.question).toBe('late');
    expect(condition.probabilityBetween[0]).toBeCloseTo(0.35, 6);
    expect(condition.probabilityBetween[1]).toBeCloseTo(0.65, 6);
    // The table's rows, narrowest band first: the accuracies above, in order.
    const accuracies = [...out.stdout.matchAll(/^[\d.]+\s+\{"question":"late".*?\}\s+([\d.]+)%/gm)].map((m) => Number(m[1]));
    expect(accuracies.slice(0, 4)).toEqual([50, 41.7, 50, 58.3]);
    expect(Math.max(...accuracies)).toBe(58.3);

    const unreached = await run([...args, '--target-accuracy', '0.9']);
    expect(unreached.code).toBe(0);
    expect(unreached.stdout).toContain('No threshold reaches 90.0%: the most accurate reaches 58.3% at $0.000408 per item');
    expect(unreached.stdout).toMatch(/Closest: threshold 0\.15\d*, condition \{"question":"late","probabilityBetween":\[0\.35\d*,0\.65\d*\]\}/);
  }, 60_000);

  it('refuses a cascade without two models, a target out of range, two targets, or a target without a cascade (exit 2, nothing sent)', async () => {
    const before = provider.received.length;
    const base = ['--set', join(dir.path, 'set.json'), '--dataset', join(dir.path, 'data.jsonl')];
    const cases: [string[], RegExp][] = [
      [['--cascade', 'lp/alpha'], /--cascade names two models, the first and the second, not "lp\/alpha"/],
      [['--cascade', 'lp/alpha,lp/beta', '--target-accuracy', '95'], /--target-accuracy must be a share between 0 and 1 \(0\.95 for 95%\), not "95"/],
      [['--cascade', 'lp/alpha,lp/beta', '--target-accuracy', '0.9', '--max-cost-per-item', '0.01'], /give one target, not both/],
      [['--model', 'lp/alpha', '--max-cost-per-item', '0.01'], /--max-cost-per-item goes with --cascade FIRST,SECOND/],
      [['--cascade', 'lp/alpha,lp/beta', '--cascade-question', 'nope'], /--cascade-question nope: the set has no such question \(it has late, mood, stars\)/],
    ];
    for (const [extra, message] of cases) {
      const out = await run([...base, ...extra]);
      expect(out.code, extra.join(' ')).toBe(2);
      expect(out.stderr).toMatch(message);
    }
    expect(provider.received.length).toBe(before);
  }, 60_000);

  it('exits 2 naming file, row and field on a bad dataset, and 2 on an unknown model', async () => {
    writeFileSync(join(dir.path, 'bad.csv'), 'id,state,expected.mood\na,x,happy\nb,y,angry\n');
    const bad = await run(['--set', join(dir.path, 'set.json'), '--dataset', join(dir.path, 'bad.csv'), '--model', 'lp/alpha']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/bad\.csv: row 3, expected\.mood: "angry" is not an option/);
    const unknown = await run(['--set', join(dir.path, 'set.json'), '--dataset', join(dir.path, 'data.jsonl'), '--model', 'lp/gamma']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/--model lp\/gamma: no such model/);
    // A file with no items is bad input too, not a run over nothing that succeeds.
    writeFileSync(join(dir.path, 'header-only.csv'), 'id,state,expected.mood\n');
    const headerOnly = await run(['--set', join(dir.path, 'set.json'), '--dataset', join(dir.path, 'header-only.csv'), '--model', 'lp/alpha']);
    expect(headerOnly.code).toBe(2);
    expect(headerOnly.stderr).toMatch(/header-only\.csv: row 1, \(file\): no items: it is empty or has only its header/);
  }, 60_000);
});

/** Every figure computed here matches the report's (the report's other fields are held to the schema above). */
function expectClose(actual: Record<string, unknown>, expected: Record<string, unknown>) {
  const walk = (a: unknown, e: unknown, path: string): void => {
    if (typeof e === 'number') expect(a, path).toBeCloseTo(e, 9);
    else if (e && typeof e === 'object')
      for (const k of Object.keys(e)) walk((a as Record<string, unknown>)[k], (e as Record<string, unknown>)[k], `${path}.${k}`);
    else expect(a, path).toEqual(e);
  };
  walk(actual, expected, 'metrics');
}
