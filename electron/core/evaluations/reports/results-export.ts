import type { EvalReport, Expected } from '../../../../shared/schemas/evaluation';
import type { Question } from '../../../../shared/schemas/question';
import { csvCell } from '../../datasets/datasets';
import type { ResultView } from '../results/result-view';
import { judge } from './report';

type ItemView = { id: string; position: number; expected: Record<string, unknown> };

/** One JSONL line per item × model: the item's expected answers and the full stored result. */
export function resultLine(item: ItemView, result: ResultView): string {
  return `${JSON.stringify({ id: item.id, position: item.position, expected: item.expected, ...result })}\n`;
}

const answerValue = (a: unknown): string => {
  const x = a as { type?: string; noul?: number; choice?: string; score?: number; box?: unknown } | undefined;
  if (!x) return '';
  return x.type === 'noul' ? String(x.noul) : x.type === 'choice' ? (x.choice ?? '') : x.type === 'score' ? String(x.score) : JSON.stringify(x.box ?? null);
};

/**
 * CSV of results, one row per item × model; `questions` fixes the columns. Beside each answer, its
 * expected value, method, whether it is right (as the metrics judge it: empty when there is nothing
 * to compare) and the confidence the metrics use, so a spreadsheet filters wrong answers without
 * judging them again.
 */
export function resultsCsvHeader(questions: readonly string[]): string {
  return `${['id', 'position', 'model', 'ok', 'provider', 'input_tokens', 'output_tokens', 'cost_usd', 'latency_ms', 'error', ...questions.flatMap((q) => [`answer.${q}`, `expected.${q}`, `method.${q}`, `correct.${q}`, `confidence.${q}`])].map(csvCell).join(',')}\n`;
}

export function resultsCsvRow(questions: Readonly<Record<string, Question>>, item: ItemView, r: ResultView): string {
  const cells = [
    item.id,
    String(item.position),
    r.model,
    String(r.ok),
    r.provider ?? '',
    String(r.usage.input_tokens),
    String(r.usage.output_tokens),
    r.usage.cost === null ? '' : String(r.usage.cost),
    String(Math.round(r.latency_ms)),
    r.error ?? '',
    ...Object.entries(questions).flatMap(([q, question]) => {
      const e = item.expected[q];
      const judged = r.ok ? judge(question, r.answers[q], e as Expected[string] | undefined) : { correct: null, confidence: null };
      return [
        answerValue(r.answers[q]),
        e === undefined ? '' : typeof e === 'object' ? JSON.stringify(e) : String(e),
        r.methods?.[q] ?? '',
        judged.correct === null ? '' : String(judged.correct),
        judged.confidence === null ? '' : String(judged.confidence),
      ];
    }),
  ];
  return `${cells.map(csvCell).join(',')}\n`;
}

const fmt = (v: unknown, digits = 3): string => (typeof v === 'number' ? v.toFixed(digits) : '–');

/**
 * The short table printed after a run: per model and question, the headline figures. What belongs
 * to the model (failed items, cost, latency) is printed on its first row only, so adding up the
 * cost column gives the run's cost.
 */
export function formatTable(report: EvalReport): string {
  const rows: string[][] = [['model', 'question', 'n', 'score', 'ece', 'brier', 'failed', 'cost $', 'p50 ms']];
  for (const m of report.models) {
    for (const [i, [name, q]] of Object.entries(m.questions).entries()) {
      const metrics = q as Record<string, unknown>;
      const headline =
        q.type === 'score' ? `exact ${fmt(metrics['exact'])}` : q.type === 'box' ? `iou ${fmt(metrics['mean_iou'])}` : `acc ${fmt(metrics['accuracy'])}`;
      const perModel = i === 0 ? [String(m.failed), m.cost_usd.toFixed(4) + (m.cost_unknown ? '+?' : ''), fmt(m.latency_ms.p50, 0)] : ['', '', ''];
      rows.push([m.model, name, String(q.n), headline, fmt(metrics['ece']), fmt(metrics['brier']), ...perModel]);
    }
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return (
    rows
      .map((r) =>
        r
          .map((c, i) => c.padEnd(widths[i]!))
          .join('  ')
          .trimEnd(),
      )
      .join('\n') + '\n'
  );
}
