// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ReviewItem } from '../../../../shared/schemas/review';
import { saveShortcutSettings } from '../../lib/use-shortcuts';
import { DEFAULT_SETTINGS } from '../../lib/shortcuts';
import { useReviewKeys } from './use-review-keys';
import type { ReviewSession } from './use-review-session';

afterEach(() => {
  cleanup();
  saveShortcutSettings(DEFAULT_SETTINGS);
});

const item: ReviewItem = {
  position: 0,
  id: 'a',
  state: 'Parcel late',
  questions: { late: { type: 'noul', instructions: 'Late?' }, mood: { type: 'choice', instructions: 'Mood?', criteria: { calm: null, angry: null } } },
  questions_from: 'capture',
  prediction: null,
  has_prediction: true,
};

function fakeSession(over: Partial<ReviewSession> = {}): ReviewSession {
  const base = {
    item,
    current: 0,
    missing: [],
    busy: false,
    committed: null,
    choose: vi.fn(),
    focus: vi.fn(),
    commit: vi.fn(),
    skip: vi.fn(),
    proceed: vi.fn(),
  };
  return { ...base, ...over } as unknown as ReviewSession;
}

function Keys({ session }: { session: ReviewSession }) {
  useReviewKeys(session);
  return (
    <>
      <input aria-label="Note" />
      <input type="radio" aria-label="Yes" />
    </>
  );
}

describe('the review keys', () => {
  it('answer the question they fit, commit, skip and flag', () => {
    const session = fakeSession();
    render(<Keys session={session} />);
    fireEvent.keyDown(document.body, { key: 'y' });
    expect(session.choose).toHaveBeenCalledWith('late', true, true);
    fireEvent.keyDown(document.body, { key: '2' });
    expect(session.choose).toHaveBeenCalledWith('mood', 'angry', true);
    fireEvent.keyDown(document.body, { key: 'ArrowDown' });
    expect(session.focus).toHaveBeenCalledWith(1);
    fireEvent.keyDown(document.body, { key: 'Enter' });
    fireEvent.keyDown(document.body, { key: 'f' });
    expect(vi.mocked(session.commit).mock.calls).toEqual([[false], [true]]);
    fireEvent.keyDown(document.body, { key: 's' });
    expect(session.skip).toHaveBeenCalledOnce();
  });

  it('work on a radio button, but not while typing, with a modifier, or with single keys turned off', () => {
    const session = fakeSession();
    render(<Keys session={session} />);
    fireEvent.keyDown(screen.getByLabelText('Yes'), { key: 'n' });
    expect(session.choose).toHaveBeenCalledWith('late', false, true);
    fireEvent.keyDown(screen.getByLabelText('Note'), { key: 'y' });
    fireEvent.keyDown(document.body, { key: 'y', ctrlKey: true });
    saveShortcutSettings({ ...DEFAULT_SETTINGS, enabled: false });
    fireEvent.keyDown(document.body, { key: 'y' });
    expect(session.choose).toHaveBeenCalledOnce();
  });

  it('commit nothing while a question is unanswered, and go on with any key after a commit', () => {
    const waiting = fakeSession({ missing: ['mood'] });
    const { unmount } = render(<Keys session={waiting} />);
    fireEvent.keyDown(document.body, { key: 'Enter' });
    expect(waiting.commit).not.toHaveBeenCalled();
    unmount();
    const committed = fakeSession({ committed: {} as ReviewSession['committed'] });
    render(<Keys session={committed} />);
    fireEvent.keyDown(document.body, { key: 'Tab' });
    expect(committed.proceed).not.toHaveBeenCalled();
    fireEvent.keyDown(document.body, { key: 'j' });
    expect(committed.proceed).toHaveBeenCalledOnce();
  });
});
