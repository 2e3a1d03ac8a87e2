/**
 * A run against its baseline: an earlier run over the same dataset. Per model and question, each
 * metric of both runs and their difference with a paired bootstrap interval (the same items drawn
 * for both), and the items whose answer changed: worse (right before, wrong now), better, or changed
 * with neither right. Pure over stored answers and expected values.
 */
import type { Expected, RunComparison } from '../../../../shared/schemas/evaluation';
import type { Question } from '../../../../shared/schemas/question';
import { DEFAULT_THRESHOLD } from '../../../../shared/metrics/binary';
import { iou } from '../../../../shared/geometry/iou';
import { pairedBootstrapDelta } from './bootstrap';
import { choiceProbabilities, CLIP, DEFAULT_IOU_THRESHOLD, scoreLevel } from './metrics';
import type { Edges } from '../../../../shared/geometry/iou';
import { judge } from './report';
import { weightedAuroc, weightedEce, weightedF1, weightedMean, weightedMacroF1, weightedQwk, type Weights } from './weighted';
import { HIGHER_IS_BETTER } from '../../../../shared/metrics/direction';

type AnyAnswer = { type?: string; noul?: number; choice?: string; probabilities?: Record<string, number>; score?: number; box?: Edges };

export interface ComparedItem {
  position: number;
  id: string;
  text: string;
  expected: Expected;
  /** answers by question, of the run and of the baseline; undefined where none was stored */
  run: Record<string, unknown> | undefined;
  baseline: Record<string, unknown> | undefined;
}

const clip = (p: number) => Math.min(1 - CLIP, Math.max(CLIP, p));

/** The statistic of each metric of a question, over items each counted by its weight; answers in item order. */
function statistics(question: Question, answers: readonly AnyAnswer[], expected: readonly Expected[string][]): Statistics {
  switch (question.type) {
    case 'noul':
      return noulStatistics(answers, expected);
    case 'choice':
      return choiceStatistics(question, answers, expected);
    case 'score':
      return scoreStatistics(question, answers, expected);
    case 'box':
      return boxStatistics(answers, expected);
  }
}

type Statistics = Record<string, (w: Weights) => number | null>;

/** Yes/no: at the 0.5 threshold, and the probability's own quality (Brier, log loss, AUROC, ECE). */
function noulStatistics(answers: readonly AnyAnswer[], expected: readonly Expected[string][]): Statistics {
  const p = Float64Array.from(answers, (a) => a.noul ?? 0);
  const y = expected.map((e) => e === true);
  const said = [...p].map((v) => v >= DEFAULT_THRESHOLD);
  const right = said.map((s, i) => s === y[i]);
  const order = Uint32Array.from(p.keys()).sort((a, b) => p[a]! - p[b]!);
  const positives = y.map((v) => (v ? 1 : 0));
  return {
    accuracy: (w) => weightedMean(right.map(Number), w),
    precision: (w) =>
      weightedMean(
        right.map(Number),
        said.map((s, i) => (s ? w[i]! : 0)),
      ),
    recall: (w) =>
      weightedMean(
        said.map(Number),
        positives.map((v, i) => v * w[i]!),
      ),
    f1: (w) => weightedF1(said, y, w),
    brier: (w) =>
      weightedMean(
        [...p].map((v, i) => (v - positives[i]!) ** 2),
        w,
      ),
    log_loss: (w) =>
      weightedMean(
        [...p].map((v, i) => -Math.log(y[i] ? clip(v) : 1 - clip(v))),
        w,
      ),
    auroc: (w) => weightedAuroc(order, p, y, w),
    ece: (w) =>
      weightedEce(
        [...p].map((v) => Math.max(v, 1 - v)),
        right,
        w,
      ),
  };
}

/** A choice: the most likely option, and its stated probabilities. */
function choiceStatistics(question: Extract<Question, { type: 'choice' }>, answers: readonly AnyAnswer[], expected: readonly Expected[string][]): Statistics {
  const options = Object.keys(question.criteria);
  const index = new Map(options.map((o, i) => [o, i]));
  const probabilities = answers.map((a) => choiceProbabilities({ choice: a.choice ?? '', probabilities: a.probabilities }));
  const predicted = answers.map((a) => index.get(a.choice ?? '') ?? -1);
  const truth = expected.map((e) => index.get(String(e)) ?? 0);
  const right = predicted.map((v, i) => v === truth[i]);
  return {
    accuracy: (w) => weightedMean(right.map(Number), w),
    macro_f1: (w) => weightedMacroF1(predicted, truth, options.length, w),
    log_loss: (w) =>
      weightedMean(
        probabilities.map((p, i) => -Math.log(clip(p[String(expected[i])] ?? 0))),
        w,
      ),
    ece: (w) =>
      weightedEce(
        probabilities.map((p, i) => p[answers[i]!.choice ?? ''] ?? 0),
        right,
        w,
      ),
  };
}

/** A score: its distance from the expected level, the most likely level, and agreement (QWK). */
function scoreStatistics(question: Extract<Question, { type: 'score' }>, answers: readonly AnyAnswer[], expected: readonly Expected[string][]): Statistics {
  const levels = answers.map((a) => scoreLevel({ score: a.score ?? 0, probabilities: a.probabilities }));
  const truth = expected.map(Number);
  return {
    mae: (w) =>
      weightedMean(
        answers.map((a, i) => Math.abs((a.score ?? 0) - truth[i]!)),
        w,
      ),
    exact: (w) =>
      weightedMean(
        levels.map((l, i) => Number(l === truth[i])),
        w,
      ),
    qwk: (w) => weightedQwk(levels, truth, question.criteria.length, w),
  };
}

/** A box: its IoU with the expected box. */
function boxStatistics(answers: readonly AnyAnswer[], expected: readonly Expected[string][]): Statistics {
  const ious = answers.map((a, i) => (a.box ? iou(a.box, expected[i] as Edges) : 0));
  return {
    mean_iou: (w) => weightedMean(ious, w),
    pass_rate: (w) =>
      weightedMean(
        ious.map((v) => Number(v >= DEFAULT_IOU_THRESHOLD)),
        w,
      ),
  };
}

const ones = (n: number) => new Uint32Array(n).fill(1);

/** Each metric of one question, both runs and the paired difference, over the items both answered and that have an expected answer. */
export function compareQuestion(name: string, question: Question, items: readonly ComparedItem[]): RunComparison['pairs'][number]['questions'][string] {
  const both = items.filter(
    (i) =>
      i.expected[name] !== undefined &&
      (i.run?.[name] as AnyAnswer | undefined)?.type === question.type &&
      (i.baseline?.[name] as AnyAnswer | undefined)?.type === question.type,
  );
  const expected = both.map((i) => i.expected[name]!);
  const ours = statistics(
    question,
    both.map((i) => i.run![name] as AnyAnswer),
    expected,
  );
  const theirs = statistics(
    question,
    both.map((i) => i.baseline![name] as AnyAnswer),
    expected,
  );
  const n = both.length;
  return {
    n,
    metrics: Object.keys(ours).map((metric) => {
      const run = n ? ours[metric]!(ones(n)) : null;
      const baseline = n ? theirs[metric]!(ones(n)) : null;
      return {
        metric,
        run,
        baseline,
        delta: run === null || baseline === null ? null : run - baseline,
        interval: pairedBootstrapDelta(n, ours[metric]!, theirs[metric]!),
        higher_is_better: HIGHER_IS_BETTER[metric] ?? true,
      };
    }),
  };
}

/** A short, comparable form of an answer: yes/no at the threshold, the option, the level, the box's pass at IoU 0.5 (and its IoU). */
function said(question: Question, answer: unknown, expected: Expected[string] | undefined): string | null {
  const a = answer as AnyAnswer | undefined;
  if (!a || a.type !== question.type) return null;
  if (question.type === 'noul') return (a.noul ?? 0) >= DEFAULT_THRESHOLD ? 'yes' : 'no';
  if (question.type === 'choice') return a.choice ?? null;
  if (question.type === 'score') return `level ${scoreLevel({ score: a.score ?? 0, probabilities: a.probabilities })}`;
  if (!a.box) return null;
  return expected && typeof expected === 'object' ? `IoU ${iou(a.box, expected).toFixed(2)}` : 'box';
}

/** Items whose answer to a question changed between the baseline and the run: worse first, then better, then the rest. */
export function changedItems(questions: Record<string, Question>, items: readonly ComparedItem[], model: string): RunComparison['changed'] {
  const order = { worse: 0, better: 1, changed: 2 } as const;
  const out: RunComparison['changed'] = [];
  for (const item of items) {
    for (const [name, q] of Object.entries(questions)) {
      const before = said(q, item.baseline?.[name], item.expected[name]);
      const now = said(q, item.run?.[name], item.expected[name]);
      if (before === null || now === null) continue;
      const wasRight = judge(q, item.baseline?.[name], item.expected[name]).correct;
      const isRight = judge(q, item.run?.[name], item.expected[name]).correct;
      // A box counts as changed when its pass at IoU 0.5 flips or its IoU moves by 0.1 or more.
      const boxMoved = q.type === 'box' && before !== now && Math.abs(Number(before.slice(4)) - Number(now.slice(4))) >= 0.1;
      if (before === now || (q.type === 'box' && !boxMoved && wasRight === isRight)) continue;
      const change = wasRight === true && isRight === false ? 'worse' : wasRight === false && isRight === true ? 'better' : 'changed';
      out.push({
        position: item.position,
        id: item.id,
        text: item.text,
        question: name,
        model,
        expected: item.expected[name] ?? null,
        baseline_answer: before,
        run_answer: now,
        change,
      });
    }
  }
  return out.sort((a, b) => order[a.change] - order[b.change] || a.position - b.position);
}
