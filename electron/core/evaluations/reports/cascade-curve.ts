/**
 * A cascade between two models already run on the same labelled dataset, computed offline: no
 * request is sent. The first model answers every item; where a condition holds on its answers, the
 * whole request goes to the second model, whose answers are then the cascade's (as the API does:
 * shared/cascade/conditions.ts decides, here as there). Pure: nothing here reads the store or the clock.
 *
 * - **Items.** Only items both models answered. An item either model failed (or has not answered
 *   yet) is excluded, and counted in `excluded` by which model failed.
 * - **Accuracy.** Correct over judged (item, question) pairs of the questions the condition reads, as
 *   the report judges each answer (report.ts `judge`: yes/no at 0.5, choice, the most likely score
 *   level, box IoU ≥ 0.5); every question of the run also gets its own share in `per_question`.
 * - **Cost per item.** The first stage's cost on every item, plus the second's where escalated: both
 *   are billed. An unknown cost counts as 0 and is counted in `cost_unknown`.
 * - **Latency.** The first stage's, plus the second's where escalated (one after the other): mean,
 *   p50 and p95 as the report takes percentiles.
 * - **Thresholds.** `confidenceBelow`: for every distinct confidence the first model gave on those
 *   questions, and 0 and 1, the shortest decimal above the one below it and at most it (it splits
 *   the figures as the figure itself does, and reads as people write bounds). `probabilityBetween`: for every distinct P(true) p the first model gave,
 *   the band [min(p, 1 − p), max(p, 1 − p)] (half-width |p − 0.5|), and [0.5, 0.5] and [0, 1]. Between
 *   two such thresholds no item changes side, so the curve is exact, not sampled.
 */
import type { Question } from '../../../../shared/schemas/question';
import type { Answer } from '../../../../shared/schemas/answer';
import type { CascadeCondition } from '../../../../shared/schemas/cascade';
import type { CascadeCurve, CascadeFamily, CascadePoint, CascadeSingle } from '../../../../shared/schemas/cascade-curve';
import { conditionProblems, figureOf } from '../../../../shared/cascade/conditions';
import { GatewayError } from '../../errors';
import { percentile } from './metrics';
import { judge, type ItemLabels, type StoredResult } from './report';

export { pickPoint } from '../../../../shared/evaluations/cascade-pick';

const READS: Record<CascadeFamily, ReadonlySet<Question['type']>> = {
  confidenceBelow: new Set(['choice', 'score', 'box']),
  probabilityBetween: new Set(['noul']),
};

const METRIC: Record<Question['type'], string> = { noul: 'accuracy', choice: 'accuracy', score: 'exact level', box: 'IoU ≥ 0.5' };

/**
 * The condition family of a curve: the one a named question's type reads, else the one asked, else
 * `confidenceBelow` when the run has a choice, score or box question and `probabilityBetween` when not.
 */
export function familyFor(questions: Readonly<Record<string, Question>>, question?: string, family?: CascadeFamily): CascadeFamily {
  if (question !== undefined) {
    const q = questions[question];
    if (!q) throw new GatewayError('bad_request', `question: the run has no question "${question}"`);
    const read: CascadeFamily = q.type === 'noul' ? 'probabilityBetween' : 'confidenceBelow';
    if (family !== undefined && family !== read) {
      const problem = conditionProblems(leaf(family, question, 0.5), questions, 'condition');
      throw new GatewayError('bad_request', problem[0] ?? `condition: ${family} does not read question "${question}"`);
    }
    return read;
  }
  if (family !== undefined) return family;
  return Object.values(questions).some((q) => READS.confidenceBelow.has(q.type)) ? 'confidenceBelow' : 'probabilityBetween';
}

/** The condition of one threshold: confidenceBelow t, or the band of half-width t (bounds given). */
function leaf(family: CascadeFamily, question: string | undefined, t: number, band?: [number, number]): CascadeCondition {
  const q = question === undefined ? {} : { question };
  return family === 'confidenceBelow' ? { ...q, confidenceBelow: t } : { ...q, probabilityBetween: band ?? [0.5 - t, 0.5 + t] };
}

interface Threshold {
  threshold: number;
  condition: CascadeCondition;
  /** Whether the condition holds for one figure the first model gave (null: none, which always holds). */
  holds(figure: number): boolean;
}

function thresholds(family: CascadeFamily, question: string | undefined, figures: readonly number[]): Threshold[] {
  if (family === 'confidenceBelow') {
    const ts = [...new Set([0, 1, ...figures])].sort((a, b) => a - b);
    // Every bound in (previous figure, this figure] splits the figures alike: the shortest is shown.
    return ts.map((t, i) => {
      const bound = i === 0 ? t : shortestIn(ts[i - 1]!, t);
      return { threshold: bound, condition: leaf(family, question, bound), holds: (f) => f < bound };
    });
  }
  // Bands nest: sorted from the narrowest (its low bound highest) to the widest.
  const bands = new Map<string, [number, number]>();
  for (const p of [0.5, 0, ...figures]) {
    const band: [number, number] = [Math.min(p, 1 - p), Math.max(p, 1 - p)];
    bands.set(`${band[0]} ${band[1]}`, band);
  }
  const sorted = [...new Set(figures)].sort((a, b) => a - b);
  return [...bands.values()]
    .sort((a, b) => b[0] - a[0] || a[1] - b[1])
    .map(([lo, hi]) => {
      const shown = readable(lo, hi, sorted);
      return { threshold: round((shown[1] - shown[0]) / 2), condition: leaf(family, question, 0, shown), holds: (f: number) => lo <= f && f <= hi };
    });
}

const round = (x: number) => Number(x.toFixed(12));

/** The number with the fewest decimals in (lo, hi]: 0.5517909999999999 over 0.41 is 0.5. */
export function shortestIn(lo: number, hi: number): number {
  for (let digits = 0; digits <= 15; digits += 1) {
    const scale = 10 ** digits;
    const candidate = Number((Math.floor(hi * scale) / scale).toFixed(digits));
    if (candidate > lo && candidate <= hi) return candidate;
  }
  return hi;
}

/** Count of sorted figures in [lo, hi]. */
function countIn(sorted: readonly number[], lo: number, hi: number): number {
  const bound = (v: number, strict: boolean) => {
    let a = 0;
    let b = sorted.length;
    while (a < b) {
      const m = (a + b) >> 1;
      if (strict ? sorted[m]! <= v : sorted[m]! < v) a = m + 1;
      else b = m;
    }
    return a;
  };
  return Math.max(0, bound(hi, true) - bound(lo, false));
}

/**
 * A band's bounds as people write them (1 − 0.9 is 0.09999999999999998 in floating point: shown 0.1),
 * when that leaves every figure of the data on the side it was; else as computed.
 */
function readable(lo: number, hi: number, sorted: readonly number[]): [number, number] {
  const [rlo, rhi] = [round(lo), round(hi)];
  const same = countIn(sorted, Math.min(lo, rlo), Math.max(hi, rhi)) === countIn(sorted, Math.max(lo, rlo), Math.min(hi, rhi));
  return same && rlo <= rhi ? [rlo, rhi] : [lo, hi];
}

/** The first threshold (by index) at which `holds` turns true, holding from there on; `length` when never. */
function firstHolding(ts: readonly Threshold[], figure: number): number {
  let lo = 0;
  let hi = ts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ts[mid]!.holds(figure)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Order statistics over a multiset of known values (a Fenwick tree of counts by rank). */
class Ranks {
  private readonly values: number[];
  private readonly tree: number[];
  private size = 0;
  constructor(all: readonly number[]) {
    this.values = [...new Set(all)].sort((a, b) => a - b);
    this.tree = new Array<number>(this.values.length + 1).fill(0);
  }
  private rank(v: number): number {
    let lo = 0;
    let hi = this.values.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.values[mid]! < v) lo = mid + 1;
      else hi = mid;
    }
    return lo + 1;
  }
  add(v: number, by: 1 | -1): void {
    this.size += by;
    for (let i = this.rank(v); i < this.tree.length; i += i & -i) this.tree[i]! += by;
  }
  /** The k-th smallest (0-based). */
  private nth(k: number): number {
    let at = 0;
    let left = k + 1;
    for (let step = 1 << Math.floor(Math.log2(this.tree.length)); step > 0; step >>= 1) {
      if (at + step < this.tree.length && this.tree[at + step]! < left) {
        at += step;
        left -= this.tree[at]!;
      }
    }
    return this.values[at]!;
  }
  /** As metrics.ts `percentile`: linear between closest ranks. */
  percentile(q: number): number | null {
    if (this.size === 0) return null;
    const h = (this.size - 1) * q;
    const lo = this.nth(Math.floor(h));
    const hi = this.nth(Math.ceil(h));
    return lo + (h - Math.floor(h)) * (hi - lo);
  }
}

interface Item {
  /** Per question of the run: 1 correct, 0 wrong, null not judged; for each model. */
  marks: [(0 | 1 | null)[], (0 | 1 | null)[]];
  cost: [number, number];
  latency: [number, number];
  /** The first threshold index at which the item is escalated. */
  from: number;
}

const byPosition = (results: readonly StoredResult[]) => new Map(results.map((r) => [r.position, r]));

/** The items both models answered, with their results; the others counted by which model failed. */
function pairUp(
  labelled: readonly ItemLabels[],
  firsts: ReadonlyMap<number, StoredResult>,
  seconds: ReadonlyMap<number, StoredResult>,
): { kept: { labels: ItemLabels; a: StoredResult; b: StoredResult }[]; excluded: CascadeCurve['excluded']; costUnknown: number } {
  const excluded = { total: 0, first_failed: 0, second_failed: 0 };
  let costUnknown = 0;
  const kept: { labels: ItemLabels; a: StoredResult; b: StoredResult }[] = [];
  for (const labels of labelled) {
    const a = firsts.get(labels.position);
    const b = seconds.get(labels.position);
    const aOk = a?.ok === true;
    const bOk = b?.ok === true;
    if (!aOk) excluded.first_failed += 1;
    if (!bOk) excluded.second_failed += 1;
    if (!aOk || !bOk) {
      excluded.total += 1;
      continue;
    }
    costUnknown += Number(a.cost === null) + Number(b.cost === null);
    kept.push({ labels, a, b });
  }

  return { kept, excluded, costUnknown };
}

/**
 * The curve's points: every item starts with the first model's marks, cost and latency, and moves to
 * the second's at the first threshold where it is escalated; running sums make each point cost one
 * step per item moved.
 */
function sweep(
  items: readonly Item[],
  ts: readonly Threshold[],
  questionCount: number,
  scopedIndex: readonly number[],
  names: readonly string[],
): CascadePoint[] {
  // Running sums, moved item by item as thresholds rise (each item escalated once, from its `from`).
  const correct = new Array<number>(questionCount).fill(0);
  const judged = new Array<number>(questionCount).fill(0);
  const count = (marks: readonly (0 | 1 | null)[], by: 1 | -1) =>
    marks.forEach((m, q) => {
      if (m === null) return;
      judged[q]! += by;
      correct[q]! += m * by;
    });
  let cost = 0;
  let latency = 0;
  const ranks = new Ranks(items.flatMap((i) => i.latency));
  for (const i of items) {
    count(i.marks[0], 1);
    cost += i.cost[0];
    latency += i.latency[0];
    ranks.add(i.latency[0], 1);
  }
  const n = items.length;
  const outcome = (escalated: number) => {
    const share = (q: number) => (judged[q]! > 0 ? correct[q]! / judged[q]! : null);
    const scopedJudged = scopedIndex.reduce((s, q) => s + judged[q]!, 0);
    return {
      accuracy: scopedJudged > 0 ? scopedIndex.reduce((s, q) => s + correct[q]!, 0) / scopedJudged : null,
      per_question: Object.fromEntries(names.map((name, q) => [name, share(q)])),
      cost_per_item: n ? cost / n : 0,
      escalated: n ? escalated / n : 0,
      escalated_items: escalated,
      latency_ms: { mean: n ? latency / n : null, p50: ranks.percentile(0.5), p95: ranks.percentile(0.95) },
    };
  };

  const order = items.map((_, i) => i).sort((x, y) => items[x]!.from - items[y]!.from);
  const points: CascadePoint[] = [];
  let next = 0;
  for (let k = 0; k < ts.length; k += 1) {
    while (next < order.length && items[order[next]!]!.from <= k) {
      const i = items[order[next]!]!;
      count(i.marks[0], -1);
      count(i.marks[1], 1);
      cost += i.cost[1];
      latency += i.latency[1] - i.latency[0];
      ranks.add(i.latency[0], -1);
      ranks.add(i.latency[1], 1);
      next += 1;
    }
    points.push({ threshold: ts[k]!.threshold, condition: ts[k]!.condition, ...outcome(next) });
  }

  return points;
}

export function cascadeCurve(input: {
  questions: Readonly<Record<string, Question>>;
  items: readonly ItemLabels[];
  first: { model: string; results: readonly StoredResult[] };
  second: { model: string; results: readonly StoredResult[] };
  family?: CascadeFamily | undefined;
  question?: string | undefined;
}): CascadeCurve {
  const { questions } = input;
  const family = familyFor(questions, input.question, input.family);
  const names = Object.keys(questions);
  const scoped = input.question !== undefined ? [input.question] : names.filter((n) => READS[family].has(questions[n]!.type));
  const scopedIndex = scoped.map((n) => names.indexOf(n));

  const { kept, excluded, costUnknown } = pairUp(input.items, byPosition(input.first.results), byPosition(input.second.results));

  // What the condition reads of the first model's answers: each item's figures on its questions.
  const figuresOf = (answers: Record<string, unknown>) => scoped.map((n) => figureOf(leaf(family, n, 0.5), answers[n] as Answer | undefined));
  const figures = kept.flatMap((k) => figuresOf(k.a.answers)).filter((f): f is number => f !== null);
  const ts = thresholds(family, input.question, figures);

  const mark = (r: StoredResult, labels: ItemLabels) =>
    names.map((n) => {
      const c = judge(questions[n]!, r.answers[n], labels.expected[n]).correct;
      return c === null ? null : c ? 1 : 0;
    });
  const items: Item[] = kept.map(({ labels, a, b }) => ({
    marks: [mark(a, labels), mark(b, labels)],
    cost: [a.cost ?? 0, b.cost ?? 0],
    latency: [a.latency_ms, a.latency_ms + b.latency_ms],
    // A question with no figure (no answer, or none the condition reads) holds at every threshold.
    from: Math.min(ts.length, ...figuresOf(a.answers).map((f) => (f === null ? 0 : firstHolding(ts, f)))),
  }));

  const points = sweep(items, ts, names.length, scopedIndex, names);
  const n = items.length;

  return {
    first: single(
      input.first.model,
      names,
      scoped,
      kept.map((k) => ({ r: k.a, labels: k.labels })),
      questions,
      0,
    ),
    second: single(
      input.second.model,
      names,
      scoped,
      kept.map((k) => ({ r: k.b, labels: k.labels })),
      questions,
      1,
    ),
    family,
    question: input.question ?? null,
    questions: scoped,
    metric: [...new Set(scoped.map((q) => METRIC[questions[q]!.type]))].join(', ') || 'accuracy',
    items: n,
    excluded,
    cost_unknown: costUnknown,
    points,
  };
}

/** One model alone over the curve's items: what its point on the chart is. */
function single(
  model: string,
  names: readonly string[],
  scoped: readonly string[],
  rows: readonly { r: StoredResult; labels: ItemLabels }[],
  questions: Readonly<Record<string, Question>>,
  /** The share of items this model answers: 0 for the first alone, 1 for the second alone. */
  escalated: 0 | 1,
): CascadeSingle {
  const tally = new Map(names.map((n) => [n, { correct: 0, judged: 0 }]));
  for (const { r, labels } of rows)
    for (const n of names) {
      const c = judge(questions[n]!, r.answers[n], labels.expected[n]).correct;
      if (c === null) continue;
      tally.get(n)!.judged += 1;
      tally.get(n)!.correct += Number(c);
    }
  const scopedTally = scoped.reduce((s, n) => ({ correct: s.correct + tally.get(n)!.correct, judged: s.judged + tally.get(n)!.judged }), {
    correct: 0,
    judged: 0,
  });
  const latencies = rows.map((x) => x.r.latency_ms);
  const n = rows.length;
  return {
    model,
    accuracy: scopedTally.judged ? scopedTally.correct / scopedTally.judged : null,
    per_question: Object.fromEntries(names.map((name) => [name, tally.get(name)!.judged ? tally.get(name)!.correct / tally.get(name)!.judged : null])),
    cost_per_item: n ? rows.reduce((s, x) => s + (x.r.cost ?? 0), 0) / n : 0,
    escalated,
    escalated_items: escalated * n,
    latency_ms: { mean: n ? latencies.reduce((a, b) => a + b, 0) / n : null, p50: percentile(latencies, 0.5), p95: percentile(latencies, 0.95) },
  };
}
