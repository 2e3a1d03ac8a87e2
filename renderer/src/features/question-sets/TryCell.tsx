import type { Run } from '../../../../shared/schemas/inspector';
import { formatUsd } from '../../../../shared/money/format-usd';
import { answerText } from '../../lib/answer-text';
import { matchesExpected } from './examples';

const mark = (v: boolean | null) => (v === true ? ' ✓' : v === false ? ' ✗' : '');

/** One cell: each question's answer, right or wrong against what the example should have been. */
export function TryCell({ run, questions, expected }: { run: Run | undefined; questions: string[]; expected: Record<string, string> }) {
  if (!run) return <td className="muted">not tried</td>;
  if (run.status === 'failed') return <td className="text-error">{run.error?.message ?? 'failed'}</td>;
  const answers = (run.response as { answers?: Record<string, unknown>; usage?: { cost?: number } } | null)?.answers ?? {};
  const cost = (run.response as { usage?: { cost?: number } } | null)?.usage?.cost;
  const cascade = (run.response as { cascade?: { answered_by: string; stages: unknown[] } } | null)?.cascade;
  return (
    <td className="try-cell" data-run={run.id}>
      {questions.map((q) => {
        const right = matchesExpected(answers[q], expected[q]);
        return (
          <div key={q} className={right === false ? 'cell-wrong' : right === true ? 'cell-right' : undefined}>
            <span className="muted">{q}:</span>{' '}
            <span className="nowrap">{run.status === 'running' && !(q in answers) ? '…' : `${answerText(answers[q])}${mark(right)}`}</span>
          </div>
        );
      })}
      {run.status === 'done' ? (
        <div className="muted small">
          {cascade ? (
            <>
              answered by {cascade.answered_by} ({cascade.stages.length === 1 ? 'first stage' : 'escalated'}) ·{' '}
            </>
          ) : null}
          {cost === undefined ? 'cost unknown' : formatUsd(cost)}
          {cascade && cascade.stages.length > 1 ? ' for both stages' : ''} · <a href={`#/runs?run=${run.id}`}>open in Runs</a>
        </div>
      ) : null}
    </td>
  );
}
