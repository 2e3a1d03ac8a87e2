import { useEffect, useRef } from 'react';
import { ColumnHeads } from '../../ui/ColumnHeads';
import { answerText } from '../../lib/answer-text';
import { ItemContent } from './ItemContent';
import { agrees, valueText } from './review-answers';
import type { Committed } from './use-review-session';

/** The item just committed, the reviewer's answers beside the model's, until a key or Next moves on. */
export function CommittedPanel({ committed, onNext }: { committed: Committed; onNext: () => void }) {
  const next = useRef<HTMLButtonElement>(null);
  useEffect(() => next.current?.focus(), []);
  const { item, answers, flagged, result } = committed;
  const prediction = result.prediction;
  const title = `Item ${item.position + 1} ${flagged ? 'flagged' : 'answered'}`;
  return (
    <section className="panel review-item" aria-labelledby="review-committed-title">
      <div className="panel-head">
        <h2 id="review-committed-title" tabIndex={-1}>
          {title}
        </h2>
        <button ref={next} type="button" onClick={onNext}>
          Next item
        </button>
      </div>
      <ItemContent state={item.state} label={`What item ${item.position + 1} is about`} />
      <table className="table review-compare">
        <caption className="visually-hidden">Your answers and the model&apos;s</caption>
        <ColumnHeads names={['Question', 'Yours', `Model${prediction ? ` (${prediction.model})` : ''}`]} />
        <tbody>
          {Object.keys(item.questions).map((name) => {
            const differs = agrees(answers[name], prediction?.answers[name]) === false;
            return (
              <tr key={name}>
                <th scope="row" className="mono">
                  {name}
                </th>
                <td>{flagged ? 'flagged' : valueText(answers[name])}</td>
                <td data-testid="model-answer">
                  {prediction ? answerText(prediction.answers[name], flagged ? undefined : answers[name]) : '—'}
                  {differs && !flagged ? <span className="badge badge-warn">differs</span> : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p className="muted small">Saved as the item&apos;s expected answers by {result.review.reviewer}. Any key or Next item goes on.</p>
    </section>
  );
}
