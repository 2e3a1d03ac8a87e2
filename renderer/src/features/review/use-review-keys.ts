import { useEffect, useRef } from 'react';
import { isTyping, shortcutSettings } from '../../lib/use-shortcuts';
import { announce } from '../../ui/announcer';
import { questionForKey, answerForKey } from './review-answers';
import type { ReviewSession } from './use-review-session';

/** A text field or a list takes the keys; a radio button or a checkbox does not (their keys are Space and the arrows). */
const typingIn = (t: EventTarget | null) => isTyping(t) && !(t instanceof HTMLInputElement && (t.type === 'radio' || t.type === 'checkbox'));
/** Inside a box question's workbench. */
const onWorkbench = (t: EventTarget | null) => t instanceof Element && t.closest('.box-workbench') !== null;
/** Controls whose own Enter and Space do what they say. */
const ownsEnter = (t: EventTarget | null) => t instanceof HTMLElement && t.matches('button, a[href], summary, select');

/** What a key does in the review; true when it did something. */
function act(session: ReviewSession, e: KeyboardEvent): boolean {
  if (session.committed) {
    // Any key but moving between controls and asking for the shortcuts goes on to the next item.
    if (['Tab', 'Shift', '?'].includes(e.key) || (ownsEnter(e.target) && (e.key === 'Enter' || e.key === ' '))) return false;
    session.proceed();
    return true;
  }
  const item = session.item;
  if (!item || session.busy) return false;
  // On the box workbench its own keys draw (N, B, the arrows, Delete…); Enter still commits.
  if (onWorkbench(e.target) && e.key !== 'Enter') return false;
  const key = e.key.toLowerCase();
  if (e.key === 'Enter') {
    if (ownsEnter(e.target)) return false;
    if (session.missing.length > 0) announce(`Not committed: answer ${session.missing.join(', ')} first, or flag the item with F.`);
    else session.commit(false);
    return true;
  }
  if (key === 's' || key === 'f') {
    if (key === 's') session.skip();
    else session.commit(true);
    return true;
  }
  const onRadio = e.target instanceof HTMLInputElement && e.target.type === 'radio';
  if ((e.key === 'ArrowDown' || e.key === 'ArrowUp') && !onRadio && Object.keys(item.questions).length > 1) {
    session.focus(session.current + (e.key === 'ArrowDown' ? 1 : -1));
    return true;
  }
  const questions = Object.entries(item.questions);
  const index = questionForKey(questions, session.current, key);
  if (index === null) return false;
  const [name, question] = questions[index]!;
  session.choose(name, answerForKey(question, key)!, true);
  return true;
}

/**
 * The review's single keys, outside text fields and while single-key shortcuts are on: Y/N and
 * 1–9 answer, arrows move between questions, Enter commits, S skips, F flags; after a commit any
 * key goes on.
 */
export function useReviewKeys(session: ReviewSession): void {
  const latest = useRef(session);
  latest.current = session;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || document.querySelector('dialog[open]')) return;
      if (typingIn(e.target) || !shortcutSettings().enabled) return;
      if (act(latest.current, e)) e.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}
