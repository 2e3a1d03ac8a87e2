/**
 * A labelled dataset of 40 support tickets, a question set in versions (its instructions say which),
 * and the answers a loopback provider gives, chosen here per model, version and item, so a test can
 * work out every figure of a report from them alone. Also the statistics written out independently
 * of the project's code: Wilson intervals and the seeded percentile bootstrap of F1.
 */
import type { LabelRequest } from './logprob-provider';

export const N = 40;
export const TOPICS = ['delivery', 'billing', 'refund'] as const;
/** 14 of 40 tickets were late (35%): a model that never says yes is right on 26 (65%). */
export const LATE = Array.from({ length: N }, (_, i) => i % 20 < 7);
export const TOPIC = Array.from({ length: N }, (_, i) => TOPICS[i % 3]!);

export function ticketSet(version: number) {
  return {
    model: 'lp/alpha',
    state: 'ignored',
    questions: {
      late: { type: 'noul', instructions: `Did the parcel come late? (v${version})` },
      topic: { type: 'choice', instructions: `What is the ticket about? (v${version})`, criteria: { delivery: null, billing: null, refund: null } },
    },
  };
}

export const ticketLines = () =>
  Array.from({ length: N }, (_, i) =>
    JSON.stringify({ id: `t${i}`, state: `Ticket item-${i}: where is my parcel?`, expected: { late: LATE[i], topic: TOPIC[i] } }),
  ).join('\n');

/** Items whose answers version 3 changes: late goes wrong on 8 items and right on 1; topic changes on 3 (one better, one worse, one between two wrong options). */
export const V3_LATE_WORSE = [0, 1, 2, 3, 20, 21, 22, 23];
export const V3_LATE_BETTER = [6];
export const V3_TOPIC = { better: 13, worse: 4, neither: 8 } as const;

/** P(true) of `late` for a model, version and item. alpha is right but on items 6 and 26 (missed, 0.3) and 19 and 39 (0.7 on a false one). */
export function lateP(model: string, version: number, i: number): number {
  if (model === 'never') return 0.05 + 0.001 * i;
  let p = LATE[i] ? 0.9 - 0.002 * i : 0.1 + 0.002 * i;
  if (i % 20 === 6) p = 0.3;
  if (i % 20 === 19) p = 0.7;
  if (version >= 3 && V3_LATE_WORSE.includes(i)) p = LATE[i] ? 0.2 : 0.8;
  if (version >= 3 && V3_LATE_BETTER.includes(i)) p = 0.85;
  return p;
}

/** The option `topic` is answered with (probability 0.8, the rest 0.1 each). */
export function topicAnswer(model: string, version: number, i: number): string {
  if (model === 'never') return 'delivery';
  const right = TOPIC[i]!;
  const wrong = (k: number) => TOPICS[(TOPICS.indexOf(right) + k) % 3]!;
  if (i === V3_TOPIC.better) return version >= 3 ? right : wrong(1);
  if (i === V3_TOPIC.worse) return version >= 3 ? wrong(1) : right;
  if (i === V3_TOPIC.neither) return version >= 3 ? wrong(2) : wrong(1);
  return i % 10 === 5 ? wrong(1) : right;
}

/** What the loopback provider answers: the item and version read from the request's text. */
export function ticketLabels({ model, text }: LabelRequest): Record<string, number> {
  const i = Number(/item-(\d+)/.exec(text)![1]);
  const version = Number(/\(v(\d+)\)/.exec(text)![1]);
  if (text.includes('Did the parcel come late?')) {
    const p = lateP(model, version, i);
    return { Yes: p, No: Number((1 - p).toFixed(6)) };
  }
  const chosen = topicAnswer(model, version, i);
  return Object.fromEntries(TOPICS.map((t, k) => [String.fromCharCode(65 + k), t === chosen ? 0.8 : 0.1]));
}

// ---- Statistics written out here, not imported ----

/** Wilson score interval, z the 97.5th percentile of the normal distribution. */
export function wilsonHere(k: number, n: number): { low: number; high: number } | null {
  if (n === 0) return null;
  const z = 1.959963984540054;
  const p = k / n;
  const d = 1 + (z * z) / n;
  const c = p + (z * z) / (2 * n);
  const s = z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
  return { low: Math.max(0, (c - s) / d), high: Math.min(1, (c + s) / d) };
}

/**
 * F1's 95% percentile bootstrap as the project documents it: 1,000 draws of n items with
 * replacement from mulberry32 seeded with 0x5eed2025 XOR n, the items in the order TP, FP, FN, TN;
 * draws where F1 is undefined left out; the percentiles interpolated linearly between ranks.
 */
export function f1BootstrapHere(c: { tp: number; fp: number; fn: number; tn: number }): { low: number; high: number } {
  const n = c.tp + c.fp + c.fn + c.tn;
  let a = (0x5eed2025 ^ n) >>> 0;
  const random = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const values: number[] = [];
  for (let b = 0; b < 1000; b += 1) {
    const cell = [0, 0, 0, 0];
    for (let i = 0; i < n; i += 1) {
      const r = Math.floor(random() * n);
      cell[r < c.tp ? 0 : r < c.tp + c.fp ? 1 : r < c.tp + c.fp + c.fn ? 2 : 3]! += 1;
    }
    const den = 2 * cell[0]! + cell[1]! + cell[2]!;
    if (den > 0) values.push((2 * cell[0]!) / den);
  }
  values.sort((x, y) => x - y);
  const at = (q: number) => {
    const h = (values.length - 1) * q;
    const lo = Math.floor(h);
    return values[lo]! + (h - lo) * (values[Math.ceil(h)]! - values[lo]!);
  };
  return { low: at(0.025), high: at(0.975) };
}

/** Confusion counts of `late` at a threshold, from the chosen P(true). */
export function lateCounts(model: string, version: number, threshold: number) {
  const c = { tp: 0, fp: 0, fn: 0, tn: 0 };
  for (let i = 0; i < N; i += 1) {
    const yes = lateP(model, version, i) >= threshold;
    if (yes && LATE[i]) c.tp += 1;
    else if (yes) c.fp += 1;
    else if (LATE[i]) c.fn += 1;
    else c.tn += 1;
  }
  return c;
}
