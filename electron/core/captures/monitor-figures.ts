/**
 * The monitor's figures from captured requests: pure. Each question's answers beside the reference
 * window's with their drift (shared/monitor/drift.ts), how the requests went (latency, escalated,
 * provisional, declined questions) and, where people have reviewed captured items, live accuracy:
 * the captured answer judged against the person's as an evaluation judges it (evaluations/reports).
 */
import type { CaptureMonitor, LiveAccuracy } from '../../../shared/schemas/capture';
import type { Expected } from '../../../shared/schemas/evaluation';
import type { Question } from '../../../shared/schemas/question';
import { compareWindows } from '../../../shared/monitor/drift';
import { wilson } from '../../../shared/metrics/binary';
import { percentile } from '../../../shared/metrics/percentile';
import { judge } from '../evaluations/reports/report';
import type { StoredCapture } from './storage';

/** A captured request with what people said of its item (empty until reviewed). */
export interface ReadCapture extends StoredCapture {
  expected: Expected;
}

type WindowFigures = Omit<CaptureMonitor['window'], 'from' | 'to'>;

/**
 * Requests counted once each, the newest first: the same request taken by two rules of one set is
 * one request, read from the rule whose item a person reviewed when one did.
 */
export function oncePerRequest<T extends StoredCapture & { expected?: Expected }>(captures: readonly T[]): T[] {
  const reviewed = (c: T) => (c.expected !== undefined && Object.keys(c.expected).length > 0 ? 1 : 0);
  const byRequest = new Map<string, T>();
  for (const c of captures) {
    const kept = byRequest.get(c.request_id);
    if (!kept || reviewed(c) > reviewed(kept)) byRequest.set(c.request_id, c);
  }
  return [...byRequest.values()].sort((x, y) => y.captured_at.localeCompare(x.captured_at));
}

/** Volume, cost, latency and the shares of requests escalated, left provisional and with a declined question. */
export function windowFigures(captures: readonly StoredCapture[]): WindowFigures {
  const costs = captures.map((c) => c.cost).filter((c): c is number => c !== null);
  const outcomes = captures.flatMap((c) => (c.outcome ? [c.outcome] : []));
  const shareOf = (pick: (o: (typeof outcomes)[number]) => boolean) => (outcomes.length > 0 ? outcomes.filter(pick).length / outcomes.length : null);
  const latencies = outcomes.map((o) => o.latency_ms);
  return {
    requests: captures.length,
    cost_per_request: costs.length > 0 ? costs.reduce((s, c) => s + c, 0) / costs.length : null,
    with_outcome: outcomes.length,
    latency_p50_ms: percentile(latencies, 0.5),
    latency_p95_ms: percentile(latencies, 0.95),
    escalated_share: shareOf((o) => o.escalated),
    provisional_share: shareOf((o) => o.provisional),
    refused_share: shareOf((o) => o.refused.length > 0),
  };
}

const accuracyOf = (correct: number, reviewed: number): LiveAccuracy | null =>
  reviewed === 0 ? null : { reviewed, correct, accuracy: correct / reviewed, interval: wilson(correct, reviewed) };

/** Per question and over all of them: the captured answers people have given an expected answer to, judged. */
export function liveAccuracy(captures: readonly ReadCapture[]): { all: LiveAccuracy | null; byQuestion: Map<string, LiveAccuracy | null> } {
  const tally = new Map<string, { correct: number; reviewed: number }>();
  let correct = 0;
  let reviewed = 0;
  for (const c of captures) {
    const questions = c.questions as Record<string, Question>;
    const answers = c.answers as Record<string, unknown>;
    for (const [name, expected] of Object.entries(c.expected)) {
      const question = questions[name];
      if (!question) continue;
      const judged = judge(question, answers[name], expected).correct;
      if (judged === null) continue;
      const t = tally.get(name) ?? { correct: 0, reviewed: 0 };
      t.reviewed += 1;
      reviewed += 1;
      if (judged) {
        t.correct += 1;
        correct += 1;
      }
      tally.set(name, t);
    }
  }
  return { all: accuracyOf(correct, reviewed), byQuestion: new Map([...tally].map(([name, t]) => [name, accuracyOf(t.correct, t.reviewed)])) };
}

/** Every figure the monitor shows but the subject and the windows' times. */
export function monitorFigures(
  window: readonly ReadCapture[],
  reference: readonly StoredCapture[],
): Pick<CaptureMonitor, 'accuracy' | 'questions'> & { window: WindowFigures; reference_requests: number } {
  const answers = (list: readonly StoredCapture[]) => list.map((c) => c.answers as Record<string, unknown>);
  const accuracy = liveAccuracy(window);
  return {
    window: windowFigures(window),
    reference_requests: reference.length,
    accuracy: accuracy.all,
    questions: compareWindows(answers(window), answers(reference)).map((q) => ({ ...q, accuracy: accuracy.byQuestion.get(q.question) ?? null })),
  };
}
