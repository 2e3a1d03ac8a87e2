import { methodText } from '../../lib/answering';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { ErrorNotice, Loading } from '../../ui/components';
import { evalItemQuery } from './api';
import { answerText, expectedLine, expectedText } from '../../lib/answer-text';
import { choiceConfidence } from '../../lib/answer-detail';
import type { OperationOutput } from '../../../../shared/contract/operations';
import { ColumnHeads } from '../../ui/ColumnHeads';

type ItemData = OperationOutput<'evals.item'>;
type ItemResult = ItemData['results'][number];

function StateView({ state }: { state: unknown }) {
  if (typeof state === 'string') return <p className="item-state">{state}</p>;
  const image = Array.isArray(state)
    ? (state.find((p) => (p as { type?: string }).type === 'image_url') as { image_url?: { url?: string } } | undefined)?.image_url?.url
    : undefined;
  if (image) return <img className="item-image" src={image} alt="The item's image" />;
  return <pre className="mono small">{JSON.stringify(state, null, 2)}</pre>;
}

/** One question's answer of a model, its raw value where a calibration changed it, and the expected one. */
function AnswerLine({ q, a, r, expected }: { q: string; a: ItemResult['answers'][string]; r: ItemResult; expected: unknown }) {
  return (
    <div>
      {q}: <strong>{answerText(a, expected)}</strong>
      {choiceConfidence(a) ? <span className="small"> {choiceConfidence(a)}</span> : null}
      {/* The raw value only where a calibration changed the answer (its method says so). */}
      {r.raw_answers?.[q] && r.methods?.[q]?.includes('+temperature') ? (
        <span className="muted small">
          {' '}
          (raw {answerText(r.raw_answers[q], expected)}
          {choiceConfidence(r.raw_answers[q]) ? ` ${choiceConfidence(r.raw_answers[q])}` : ''})
        </span>
      ) : null}
      <span className="muted small"> · expected {expectedText(expected)}</span>
    </div>
  );
}

/** One model's result of the item: who answered and at what cost, its answers (or its error), and how each was answered. */
function ResultRow({ r, expected }: { r: ItemResult; expected: ItemData['item']['expected'] }) {
  return (
    <tr>
      <td>
        <div className="mono">{r.model}</div>
        <div className="small muted">{r.provider ?? '—'}</div>
        <div className="small muted mono">
          {r.usage.input_tokens} in / {r.usage.output_tokens} out · {r.usage.cost === null ? 'cost unknown' : `$${r.usage.cost.toPrecision(3)}`} ·{' '}
          {Math.round(r.latency_ms)} ms
        </div>
      </td>
      <td>
        {r.ok ? (
          Object.entries(r.answers).map(([q, a]) => <AnswerLine key={q} q={q} a={a} r={r} expected={expected[q]} />)
        ) : (
          <span className="text-error">{r.error}</span>
        )}
      </td>
      <td className="mono small">{r.methods ? Object.entries(r.methods).map(([q, m]) => <div key={q} title={m}>{`${q}: ${methodText(m)}`}</div>) : '—'}</td>
    </tr>
  );
}

/**
 * One item beside the results matrix (as a trace opens beside its list): its state, expected answers
 * and each model's full stored result. Escape closes it.
 */
export function ItemDetail({ runId, position, onClose }: { runId: string; position: number; onClose: () => void }) {
  const detail = useQuery(evalItemQuery(runId, position));
  // Beside the matrix, but the page may be scrolled past its top: brought into view once loaded.
  const top = useRef<HTMLElement>(null);
  const loaded = detail.data !== undefined;
  useEffect(() => {
    if (loaded) top.current?.scrollIntoView({ block: 'nearest' });
  }, [runId, position, loaded]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onClose]);
  return (
    <aside ref={top} className="item-detail-pane" aria-labelledby="item-detail-title">
      <div className="panel-head">
        <h2 id="item-detail-title">{`Item ${detail.data?.item.id ?? position + 1}`}</h2>
        <button type="button" className="secondary" onClick={onClose} title="Escape">
          Close
        </button>
      </div>
      {detail.isPending ? <Loading what="the item" /> : null}
      {detail.error ? <ErrorNotice error={detail.error} /> : null}
      {detail.data ? (
        <div className="item-detail">
          <StateView state={detail.data.item.state} />
          <p>
            Expected: <strong>{expectedLine(detail.data.item.expected as Record<string, unknown>)}</strong>
          </p>
          <table className="table small" aria-label="Answers of each model">
            <ColumnHeads names={['Model', 'Answers', 'Method']} scoped={false} />
            <tbody>
              {detail.data.results.map((r) => (
                <ResultRow key={r.variant} r={r} expected={detail.data.item.expected} />
              ))}
            </tbody>
          </table>
          <details>
            <summary>Full stored results (JSON)</summary>
            <pre className="mono small">{JSON.stringify(detail.data.results, null, 2)}</pre>
          </details>
        </div>
      ) : null}
    </aside>
  );
}
