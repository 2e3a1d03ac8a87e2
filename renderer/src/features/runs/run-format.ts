import type { Answer } from '../../../../shared/schemas/answer';
import type { DecisionsResponse } from '../../../../shared/schemas/decisions-response';
import type { Run } from '../../../../shared/schemas/inspector';
import { iou } from '../../../../shared/geometry/iou';
import { UNKNOWN } from '../../ui/format';

export const responseOf = (run: Run): DecisionsResponse | null => run.response as DecisionsResponse | null;

/** Refusals before any upstream call: bad request, no credit, no endpoint meets the preferences, none available. */
const NOTHING_SENT = new Set([400, 402, 404, 503]);

/** What a run cost, in words; a run refused before any request was sent cost nothing, and says so. */
export function costText(run: Run): string {
  const response = responseOf(run);
  if (response) return response.usage.cost !== undefined ? `$${response.usage.cost.toPrecision(3)}` : 'unknown (a price is not known)';
  if (run.status === 'running') return '…';
  if (run.error && NOTHING_SENT.has(run.error.code)) return '$0 (nothing was sent: no endpoint accepted the request)';
  if (run.status === 'cancelled') return '$0 recorded (cancelled before an answer)';
  return '$0 recorded (no endpoint answered)';
}

export const latencyText = (run: Run): string => (run.latency_ms !== null ? `${(run.latency_ms / 1000).toFixed(2)} s` : UNKNOWN);

/** Whether two answers to one question differ enough to point out. */
export function differs(a: Answer | undefined, b: Answer | undefined): boolean {
  if (!a || !b || a.type !== b.type) return true;
  if (a.type === 'noul' && b.type === 'noul') return Math.abs(a.noul - b.noul) > 0.05;
  if (a.type === 'choice' && b.type === 'choice') return a.choice !== b.choice;
  if (a.type === 'score' && b.type === 'score') return Math.abs(a.score - b.score) > 0.25;
  if (a.type === 'box' && b.type === 'box') return iou(a.box, b.box) < 0.9;
  return false;
}

/** The top answer in a few words; scores say "of N" (the highest level). */
export function summary(a: Answer | undefined): string {
  if (!a) return UNKNOWN;
  if (a.type === 'noul') return `P(true) ${(a.noul * 100).toFixed(1)}%`;
  // The chosen option's probability (confidence is another statistic: how concentrated the distribution is).
  if (a.type === 'choice') return `${a.choice}${a.probabilities?.[a.choice] !== undefined ? ` (${(a.probabilities[a.choice]! * 100).toFixed(0)}%)` : ''}`;
  if (a.type === 'score') return `level ${a.score.toFixed(2)}${a.probabilities ? ` of ${Object.keys(a.probabilities).length - 1}` : ''}`;
  return `box ${a.box.left.toFixed(2)},${a.box.top.toFixed(2)} → ${a.box.right.toFixed(2)},${a.box.bottom.toFixed(2)}`;
}

const cell = (value: string | number | null | undefined): string => {
  const text = value === null || value === undefined ? '' : String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/** Rows as CSV text (RFC 4180 quoting). */
export const csv = (rows: (string | number | null | undefined)[][]): string => rows.map((r) => r.map(cell).join(',')).join('\r\n') + '\r\n';

export function historyCsv(runs: Run[]): string {
  return csv([
    ['id', 'label', 'model', 'provider', 'status', 'answered', 'questions', 'cost_usd', 'latency_ms', 'started_at', 'error'],
    ...runs.map((r) => {
      const response = responseOf(r);
      return [
        r.id,
        r.label,
        r.model,
        response?.provider,
        r.status,
        r.answered.length,
        r.question_count,
        response?.usage.cost,
        r.latency_ms,
        r.started_at,
        r.error?.message,
      ];
    }),
  ]);
}

export function compareCsv(runs: Run[], names: string[]): string {
  const header = ['question', ...runs.map((r) => `${r.model} ${r.id} ${r.started_at}`)];
  const answerRows = names.map((name) => [name, ...runs.map((r) => summary(responseOf(r)?.answers[name]))]);
  return csv([
    header,
    ...answerRows,
    ['provider', ...runs.map((r) => responseOf(r)?.provider ?? '')],
    ['input_tokens', ...runs.map((r) => responseOf(r)?.usage.input_tokens ?? '')],
    ['output_tokens', ...runs.map((r) => responseOf(r)?.usage.output_tokens ?? '')],
    ['cost_usd', ...runs.map((r) => responseOf(r)?.usage.cost ?? '')],
    ['latency_ms', ...runs.map((r) => r.latency_ms ?? '')],
  ]);
}
