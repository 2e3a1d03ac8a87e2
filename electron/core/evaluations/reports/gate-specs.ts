/**
 * `--fail-under QUESTION.METRIC=VALUE` and `--fail-over …` read and checked against the question set
 * before anything is sent: a threshold that names no question or metric of the set, reads the wrong
 * way (`--fail-under ece=…`), or puts a share out of [0, 1] is bad input, never a silent pass.
 */
import type { Question } from '../../../../shared/schemas/question';
import { higherIsBetter, MODEL_METRICS, QUESTION_METRICS } from './metric-table';

export type GateKind = 'fail_under' | 'fail_over';

export interface GateSpec {
  kind: GateKind;
  /** null: every question that has the metric (or the model, for cost and latency) */
  question: string | null;
  metric: string;
  limit: number;
  /** as written, for messages */
  text: string;
}

/** Metrics that are shares or scores in [0, 1]: a limit of 90 there was meant as 0.9. */
const UNIT_METRICS = new Set(['accuracy', 'precision', 'recall', 'f1', 'base_rate', 'auroc', 'ece', 'macro_f1', 'exact', 'pass_rate', 'mean_iou']);

const flagOf = (kind: GateKind) => (kind === 'fail_under' ? '--fail-under' : '--fail-over');

/** Reads one spec; returns a message naming what is wrong instead when it is malformed or does not fit the set. */
export function parseGate(kind: GateKind, text: string, questions: Record<string, Question>): GateSpec | string {
  const flag = flagOf(kind);
  const eq = text.lastIndexOf('=');
  if (eq <= 0) return `${flag} ${text}: write QUESTION.METRIC=VALUE or METRIC=VALUE (for example late.recall=0.8)`;
  const name = text.slice(0, eq).trim();
  const raw = text.slice(eq + 1).trim();
  const limit = Number(raw);
  if (raw === '' || !Number.isFinite(limit)) return `${flag} ${text}: "${raw}" is not a number`;
  const dot = name.lastIndexOf('.');
  const question = dot >= 0 ? name.slice(0, dot) : null;
  const metric = dot >= 0 ? name.slice(dot + 1) : name;
  const known = [...new Set([...Object.values(QUESTION_METRICS).flat(), ...MODEL_METRICS])];
  if (!known.includes(metric)) return `${flag} ${text}: no metric "${metric}" (metrics: ${known.join(', ')})`;
  if (question !== null) {
    const q = questions[question];
    if (!q) return `${flag} ${text}: the set has no question "${question}" (it has ${Object.keys(questions).join(', ')})`;
    if (!(QUESTION_METRICS[q.type] ?? []).includes(metric))
      return `${flag} ${text}: "${question}" is a ${q.type} question, whose metrics are ${(QUESTION_METRICS[q.type] ?? []).join(', ')}`;
  } else if (!MODEL_METRICS.includes(metric) && !Object.values(questions).some((q) => (QUESTION_METRICS[q.type] ?? []).includes(metric))) {
    return `${flag} ${text}: no question of the set has the metric "${metric}"`;
  }
  const higher = higherIsBetter(metric);
  if (higher === false && kind === 'fail_under') return `${flag} ${text}: ${metric} is better lower; --fail-over ${name}=${raw} fails when it is above ${raw}`;
  if (higher === true && kind === 'fail_over') return `${flag} ${text}: ${metric} is better higher; --fail-under ${name}=${raw} fails when it is below ${raw}`;
  if (UNIT_METRICS.has(metric) && (limit < 0 || limit > 1)) return `${flag} ${text}: ${metric} is between 0 and 1 (0.9 for 90%), not ${raw}`;
  return { kind, question, metric, limit, text };
}

/** Every spec of both flags, or the messages of those that are wrong. */
export function parseGates(under: readonly string[], over: readonly string[], questions: Record<string, Question>): { gates: GateSpec[]; problems: string[] } {
  const read = [...under.map((t) => parseGate('fail_under', t, questions)), ...over.map((t) => parseGate('fail_over', t, questions))];
  return { gates: read.filter((g): g is GateSpec => typeof g !== 'string'), problems: read.filter((g): g is string => typeof g === 'string') };
}

/** The metrics a run is compared with its baseline on, per kind of question (compare.ts's statistics). */
export const COMPARED_METRICS: Readonly<Record<string, readonly string[]>> = {
  noul: ['accuracy', 'precision', 'recall', 'f1', 'brier', 'log_loss', 'auroc', 'ece'],
  choice: ['accuracy', 'macro_f1', 'log_loss', 'ece'],
  score: ['mae', 'exact', 'qwk'],
  box: ['mean_iou', 'pass_rate'],
};

/** Metrics `--regression-metrics` may name: those a run is compared with its baseline on. */
export function parseRegressionMetrics(list: string, questions: Record<string, Question>): { question: string | null; metric: string }[] | string {
  const out: { question: string | null; metric: string }[] = [];
  for (const part of list
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const dot = part.lastIndexOf('.');
    const question = dot >= 0 ? part.slice(0, dot) : null;
    const metric = dot >= 0 ? part.slice(dot + 1) : part;
    if (question !== null && !questions[question]) return `--regression-metrics ${part}: the set has no question "${question}"`;
    const kinds = question !== null ? [questions[question]!.type] : Object.values(questions).map((q) => q.type);
    if (!kinds.some((k) => (COMPARED_METRICS[k] ?? []).includes(metric)))
      return `--regression-metrics ${part}: not a metric compared with a baseline for ${question === null ? 'any question of the set' : `"${question}"`}`;
    out.push({ question, metric });
  }
  if (out.length === 0) return '--regression-metrics names no metric';
  return out;
}
