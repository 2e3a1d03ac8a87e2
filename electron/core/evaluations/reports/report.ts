/** The evaluation report (issue 12's shape) from stored results: pure. */
import { iou } from '../../../../shared/geometry/iou';
import type { Question } from '../../../../shared/schemas/question';
import type { EvalReport, Expected, ModelReport, QuestionMetrics } from '../../../../shared/schemas/evaluation';
import { calibrate, type CalibrationPoint } from '../calibration/calibration';
import { boxMetrics, choiceMetrics, choiceProbabilities, noulMetrics, percentile, scoreLevel, scoreMetrics, DEFAULT_IOU_THRESHOLD } from './metrics';
import type { Edges } from '../../../../shared/geometry/iou';
import { boxIntervals, choiceIntervals, intervalMethod, noulIntervals, scoreIntervals } from './intervals';

/** Below this many judged items a metric is shown as provisional, not as a result. */
export const MIN_FINAL_N = 30;

export interface ItemLabels {
  position: number;
  expected: Expected;
}

export interface StoredResult {
  position: number;
  ok: boolean;
  answers: Record<string, unknown>;
  cost: number | null;
  input_tokens: number;
  output_tokens: number;
  latency_ms: number;
}

type AnyAnswer = { type?: string; noul?: number; choice?: string; probabilities?: Record<string, number>; score?: number; box?: Edges };

/** Whether one answer matches its expected value, and the confidence shown for it; null when not comparable. */
export function judge(question: Question, answer: unknown, expected: Expected[string] | undefined): { correct: boolean | null; confidence: number | null } {
  const a = answer as AnyAnswer | undefined;
  if (!a || a.type !== question.type) return { correct: null, confidence: null };
  switch (question.type) {
    case 'noul': {
      const p = a.noul ?? 0;
      return { correct: typeof expected === 'boolean' ? p >= 0.5 === expected : null, confidence: Math.max(p, 1 - p) };
    }
    case 'choice': {
      const probs = choiceProbabilities({ choice: a.choice ?? '', probabilities: a.probabilities });
      return { correct: typeof expected === 'string' ? a.choice === expected : null, confidence: probs[a.choice ?? ''] ?? 0 };
    }
    case 'score': {
      const level = scoreLevel({ score: a.score ?? 0, probabilities: a.probabilities });
      return { correct: typeof expected === 'number' ? level === expected : null, confidence: a.probabilities?.[String(level)] ?? null };
    }
    case 'box':
      return { correct: expected && typeof expected === 'object' && a.box ? iou(a.box, expected) >= DEFAULT_IOU_THRESHOLD : null, confidence: null };
  }
}

/** The answer as a distribution over labels for calibration (noul: {true, false}); null for boxes. */
export function calibrationPoint(question: Question, answer: AnyAnswer, expected: Expected[string], position: number): CalibrationPoint | null {
  if (question.type === 'noul') {
    const p = answer.noul ?? 0;
    return { position, probabilities: { true: p, false: 1 - p }, predicted: p >= 0.5 ? 'true' : 'false', expected: String(expected) };
  }
  if (question.type === 'choice') {
    return {
      position,
      probabilities: choiceProbabilities({ choice: answer.choice ?? '', probabilities: answer.probabilities }),
      predicted: answer.choice ?? '',
      expected: String(expected),
    };
  }
  if (question.type === 'score') {
    const probabilities = answer.probabilities ?? { [String(Math.round(answer.score ?? 0))]: 1 };
    return { position, probabilities, predicted: String(scoreLevel({ score: answer.score ?? 0, probabilities })), expected: String(expected) };
  }
  return null;
}

/**
 * The metrics of the plain report, per kind (what `npm run eval --report` wrote before it wrote the
 * screen's detailed report, reports/ci-report.ts): a report without `detail` keeps to them.
 */
const PLAIN_KEYS = new Set([
  'type',
  'n',
  'accuracy',
  'brier',
  'log_loss',
  'auroc',
  'ece',
  'reliability',
  'macro_f1',
  'confusion',
  'mae',
  'exact',
  'qwk',
  'mean_iou',
  'pass_rate',
  'iou_threshold',
  'calibration',
]);

export function questionMetrics(
  name: string,
  question: Question,
  items: readonly ItemLabels[],
  results: ReadonlyMap<number, StoredResult>,
  detail = true,
): QuestionMetrics {
  const metrics = detailedMetrics(name, question, items, results, detail);
  return detail ? metrics : (Object.fromEntries(Object.entries(metrics).filter(([k]) => PLAIN_KEYS.has(k))) as QuestionMetrics);
}

function detailedMetrics(
  name: string,
  question: Question,
  items: readonly ItemLabels[],
  results: ReadonlyMap<number, StoredResult>,
  detail: boolean,
): QuestionMetrics {
  const pairs: { position: number; answer: AnyAnswer; expected: Expected[string] }[] = [];
  for (const item of items) {
    const expected = item.expected[name];
    const result = results.get(item.position);
    const answer = result?.ok ? (result.answers[name] as AnyAnswer | undefined) : undefined;
    if (expected === undefined || !answer || answer.type !== question.type) continue;
    pairs.push({ position: item.position, answer, expected });
  }
  const points = pairs.map((x) => calibrationPoint(question, x.answer, x.expected, x.position)).filter((x) => x !== null);
  const calibration = question.type === 'box' ? null : calibrate(points);
  switch (question.type) {
    case 'noul': {
      const noul = pairs.map((x) => ({ p: x.answer.noul ?? 0, expected: x.expected === true }));
      return { ...noulMetrics(noul), ...(detail ? { intervals: noulIntervals(noul) } : {}), calibration };
    }
    case 'choice': {
      const choice = pairs.map((x) => ({
        predicted: x.answer.choice ?? '',
        probabilities: choiceProbabilities({ choice: x.answer.choice ?? '', probabilities: x.answer.probabilities }),
        expected: String(x.expected),
      }));
      const options = Object.keys(question.criteria);
      return { ...choiceMetrics(choice, options), ...(detail ? { intervals: choiceIntervals(choice, options) } : {}), calibration };
    }
    case 'score': {
      const score = pairs.map((x) => ({ score: x.answer.score ?? 0, probabilities: x.answer.probabilities, expected: Number(x.expected) }));
      return {
        ...scoreMetrics(score, question.criteria.length),
        ...(detail ? { intervals: scoreIntervals(score, question.criteria.length) } : {}),
        calibration,
      };
    }
    case 'box': {
      const boxes = pairs.map((x) => ({ box: x.answer.box!, expected: x.expected as Edges }));
      return { ...boxMetrics(boxes), ...(detail ? { intervals: boxIntervals(boxes.map((b) => iou(b.box, b.expected))) } : {}), calibration: null };
    }
  }
}

export function modelReport(options: {
  model: string;
  questions: Record<string, Question>;
  items: readonly ItemLabels[];
  results: readonly StoredResult[];
  detail?: boolean;
}): ModelReport {
  const byPosition = new Map(options.results.map((r) => [r.position, r]));
  const ok = options.results.filter((r) => r.ok);
  const latencies = ok.map((r) => r.latency_ms);
  return {
    model: options.model,
    items: options.results.length,
    failed: options.results.length - ok.length,
    cost_usd: options.results.reduce((s, r) => s + (r.cost ?? 0), 0),
    cost_unknown: options.results.filter((r) => r.cost === null).length,
    input_tokens: options.results.reduce((s, r) => s + r.input_tokens, 0),
    output_tokens: options.results.reduce((s, r) => s + r.output_tokens, 0),
    latency_ms: { p50: percentile(latencies, 0.5), p95: percentile(latencies, 0.95) },
    questions: Object.fromEntries(
      Object.entries(options.questions).map(([name, q]) => [name, questionMetrics(name, q, options.items, byPosition, options.detail ?? true)]),
    ),
  };
}

/**
 * The report. With `detail` (the screen's), each metric's interval, the majority baseline, yes/no
 * precision, recall, F1, base rate and the counts at every threshold (the screen and `verdict eval`
 * read this one); without, the plain metrics.
 */
export function evalReport(options: {
  questions: Record<string, Question>;
  items: readonly ItemLabels[];
  variants: readonly { key: string; results: readonly StoredResult[] }[];
  detail?: boolean;
}): EvalReport {
  const detail = options.detail ?? true;
  return {
    dataset: { items: options.items.length },
    ...(detail ? { interval_method: intervalMethod(options.items.length), min_final_n: MIN_FINAL_N } : {}),
    models: options.variants.map((v) => modelReport({ model: v.key, questions: options.questions, items: options.items, results: v.results, detail })),
  };
}
