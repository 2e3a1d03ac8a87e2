import { methodText } from '../../lib/answering';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { ErrorNotice, Loading, Panel } from '../../ui/components';
import { evalItemQuery } from './api';
import { answerText } from './ResultsMatrix';
import { choiceConfidence, scoredLevel } from './answer-detail';

function StateView({ state }: { state: unknown }) {
  if (typeof state === 'string') return <p className="item-state">{state}</p>;
  const image = Array.isArray(state) ? (state.find((p) => (p as { type?: string }).type === 'image_url') as { image_url?: { url?: string } } | undefined)?.image_url?.url : undefined;
  if (image) return <img className="item-image" src={image} alt="The item's image" />;
  return <pre className="mono small">{JSON.stringify(state, null, 2)}</pre>;
}

/** One item: its state, expected answers and each model's full stored result. */
export function ItemDetail({ runId, position, onClose }: { runId: string; position: number; onClose: () => void }) {
  const detail = useQuery(evalItemQuery(runId, position));
  // Opened from the matrix, the item is shown below it: brought into view, or the click seems to do nothing.
  const top = useRef<HTMLDivElement>(null);
  // Once its answers are there, so what comes into view is the whole item, not its loading line.
  const loaded = detail.data !== undefined;
  useEffect(() => {
    if (loaded) top.current?.scrollIntoView({ block: 'nearest' });
  }, [runId, position, loaded]);
  return (
    <div ref={top} className="item-detail-anchor">
      <Panel
        title={`Item ${detail.data?.item.id ?? position + 1}`}
        aside={
          <button type="button" className="secondary" onClick={onClose}>
            Close
          </button>
        }
      >
        {detail.isPending ? <Loading what="the item" /> : null}
        {detail.error ? <ErrorNotice error={detail.error} /> : null}
        {detail.data ? (
          <div className="item-detail">
            <StateView state={detail.data.item.state} />
            <p>
              Expected: <span className="mono">{JSON.stringify(detail.data.item.expected)}</span>
            </p>
            <table className="table small" aria-label="Answers of each model">
              <thead>
                <tr>
                  <th>Model</th>
                  <th>Answers</th>
                  <th>Method</th>
                  <th>Provider</th>
                  <th>Tokens</th>
                  <th>Cost</th>
                  <th>Latency</th>
                </tr>
              </thead>
              <tbody>
                {detail.data.results.map((r) => (
                  <tr key={r.variant}>
                    <td className="mono">{r.model}</td>
                    <td>
                      {r.ok
                        ? Object.entries(r.answers).map(([q, a]) => (
                            <div key={q}>
                              {q}: <strong>{answerText(a)}</strong>
                              {choiceConfidence(a) ? <span className="small"> {choiceConfidence(a)}</span> : null}
                              {scoredLevel(a) ? <span className="small"> = {scoredLevel(a)}</span> : null}
                              {/* The raw value only where a calibration changed the answer (its method says so). */}
                              {r.raw_answers?.[q] && r.methods?.[q]?.includes('+temperature') ? (
                                <span className="muted small">
                                  {' '}
                                  (raw {answerText(r.raw_answers[q])}
                                  {choiceConfidence(r.raw_answers[q]) ? ` ${choiceConfidence(r.raw_answers[q])}` : ''})
                                </span>
                              ) : null}
                              <span className="muted small"> · expected {q in detail.data.item.expected ? JSON.stringify(detail.data.item.expected[q]) : 'none'}</span>
                            </div>
                          ))
                        : <span className="text-error">{r.error}</span>}
                    </td>
                    <td className="mono small">{r.methods ? Object.entries(r.methods).map(([q, m]) => <div key={q} title={m}>{`${q}: ${methodText(m)}`}</div>) : '—'}</td>
                    <td>{r.provider ?? '—'}</td>
                    <td className="mono">
                      {r.usage.input_tokens} / {r.usage.output_tokens}
                    </td>
                    <td className="mono">{r.usage.cost === null ? 'unknown' : `$${r.usage.cost.toPrecision(3)}`}</td>
                    <td className="mono">{Math.round(r.latency_ms)} ms</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <details>
              <summary>Full stored results (JSON)</summary>
              <pre className="mono small">{JSON.stringify(detail.data.results, null, 2)}</pre>
            </details>
          </div>
        ) : null}
      </Panel>
    </div>
  );
}
