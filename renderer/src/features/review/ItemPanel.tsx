import { useEffect, useRef } from 'react';
import type { ReviewItem } from '../../../../shared/schemas/review';
import { ErrorNotice } from '../../ui/components';
import { ItemContent, itemImage } from './ItemContent';
import { QuestionField } from './QuestionField';
import { ReviewKeysHint } from './ReviewKeysHint';
import type { ReviewSession } from './use-review-session';

/** A new item takes focus at its heading (its keys work from there), unless someone is typing elsewhere. */
function useFocusOnNewItem(position: number) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    const active = document.activeElement;
    if (active instanceof HTMLTextAreaElement || (active instanceof HTMLInputElement && !['radio', 'checkbox'].includes(active.type))) return;
    heading.current?.focus();
  }, [position]);
  return heading;
}

/** Focus follows the question under the keys while it is among the questions. */
function useFocusFollowsCurrent(current: number) {
  const list = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const fieldset = list.current?.querySelectorAll('fieldset')[current];
    if (!fieldset || !list.current?.contains(document.activeElement) || fieldset.contains(document.activeElement)) return;
    fieldset.querySelector<HTMLInputElement>('input:checked, input')?.focus();
  }, [current]);
  return list;
}

/** The item held: what it is about, its questions with their keys, and committing, skipping or flagging it. */
export function ItemPanel({ item, session }: { item: ReviewItem; session: ReviewSession }) {
  const heading = useFocusOnNewItem(item.position);
  const list = useFocusFollowsCurrent(session.current);
  const questions = Object.entries(item.questions);
  const title = `Item ${item.position + 1}`;
  const image = itemImage(item.state);
  const drawn = image !== null && questions.some(([, q]) => q.type === 'box');
  return (
    <section className="panel review-item" aria-labelledby="review-item-title">
      <div className="panel-head">
        <h2 id="review-item-title" ref={heading} tabIndex={-1}>
          {title} <span className="muted small mono">{item.id}</span>
        </h2>
        <span className="small muted">{item.questions_from === 'capture' ? 'Questions as captured' : 'Questions from the question set'}</span>
      </div>
      <ItemContent state={item.state} label={`What ${title.toLowerCase()} is about`} imagesOnWorkbench={drawn} />
      <div ref={list} className="review-questions">
        {questions.map(([name, question], index) => (
          <QuestionField
            key={name}
            name={name}
            question={question}
            group={`review-${item.position}`}
            value={session.answers[name]}
            current={index === session.current && questions.length > 1}
            prediction={item.prediction ? item.prediction.answers[name] : undefined}
            image={image}
            onChoose={(value) => session.choose(name, value, false)}
            onClear={() => session.unset(name)}
            onFocus={() => session.focus(index)}
          />
        ))}
      </div>
      {item.prediction ? (
        <p className="small muted review-live">
          Answered live by <span className="mono">{item.prediction.model}</span>
          {item.prediction.provider ? ` via ${item.prediction.provider}` : ''}.
        </p>
      ) : null}
      <div className="toolbar review-actions">
        <button type="button" disabled={session.busy} aria-keyshortcuts="Enter" onClick={() => session.commit(false)}>
          Commit <kbd aria-hidden="true">Enter</kbd>
        </button>
        <button type="button" className="secondary" disabled={session.busy} aria-keyshortcuts="S" onClick={() => session.skip()}>
          Skip <kbd aria-hidden="true">S</kbd>
        </button>
        <button type="button" className="secondary" disabled={session.busy} aria-keyshortcuts="F" onClick={() => session.commit(true)}>
          Flag <kbd aria-hidden="true">F</kbd>
        </button>
        {session.missing.length > 0 ? <span className="small muted">To answer: {session.missing.join(', ')}</span> : null}
      </div>
      {session.error ? <ErrorNotice error={session.error} title="Not saved" /> : null}
      <ReviewKeysHint several={questions.length > 1} />
    </section>
  );
}
