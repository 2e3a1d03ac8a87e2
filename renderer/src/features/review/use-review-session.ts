import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ReviewAnswered, ReviewItem } from '../../../../shared/schemas/review';
import { announce } from '../../ui/announcer';
import { nextItemQuery, useAnswerItem, useSkipItem } from './api';
import { predictionLine, unanswered, type Answers, type AnswerValue } from './review-answers';

/** What the reviewer gave an item, kept to show beside the model's answer once committed. */
export interface Committed {
  item: ReviewItem;
  answers: Answers;
  flagged: boolean;
  result: ReviewAnswered;
}

interface Draft {
  /** the dataset and question set the item was held from: the same position elsewhere is another item */
  source: string;
  position: number;
  answers: Answers;
  current: number;
}

/**
 * One reviewer working a dataset's open items one at a time: the item held, the answers given so
 * far and the question under the keys, committing (or flagging, or skipping) it, and the committed
 * item shown beside the model's answer until the reviewer moves on.
 */
export function useReviewSession(datasetId: string | null, questionSetId: string | null) {
  const source = `${datasetId}|${questionSetId}`;
  const [place, setPlace] = useState({ source, after: -1, round: 0 });
  const here = place.source === source ? place : { source, after: -1, round: place.round + 1 };
  const next = useQuery({ ...nextItemQuery({ datasetId: datasetId ?? '', questionSetId, after: here.after, round: here.round }), enabled: datasetId !== null });
  const item = next.data?.item ?? null;
  const [draft, setDraft] = useState<Draft | null>(null);
  const held =
    item && draft?.source === source && draft.position === item.position ? draft : { source, position: item?.position ?? -1, answers: {}, current: 0 };
  const [committed, setCommitted] = useState<Committed | null>(null);
  const moveOn = (after: number) => setPlace({ source, after, round: here.round + 1 });

  const answer = useAnswerItem((result, commit) => {
    if (!item) return;
    const label = `item ${commit.position + 1}`;
    announce(
      `${commit.flagged ? 'Flagged' : 'Answered'} ${label}; ${item.has_prediction ? `model said ${predictionLine(result.prediction)}` : 'no model answer to compare'}.`,
    );
    // The model's answer waits beside the reviewer's until a key or Next; with none to show, the next item comes at once.
    if (item.has_prediction) setCommitted({ item, answers: held.answers, flagged: commit.flagged, result });
    moveOn(commit.position);
  });
  const skip = useSkipItem((position) => {
    announce(`Skipped item ${position + 1}.`);
    moveOn(position);
  });

  const questionNames = item ? Object.keys(item.questions) : [];
  const busy = answer.isPending || skip.isPending || next.isFetching;
  return {
    next,
    item,
    counts: (place.source === source ? committed?.result.counts : null) ?? next.data?.counts ?? null,
    answers: held.answers,
    current: Math.min(held.current, Math.max(0, questionNames.length - 1)),
    committed: place.source === source ? committed : null,
    busy,
    error: answer.error ?? skip.error,
    missing: item ? unanswered(item.questions, held.answers) : [],
    choose(name: string, value: AnswerValue, advance: boolean) {
      if (!item) return;
      const index = questionNames.indexOf(name);
      const answers = { ...held.answers, [name]: value };
      const following = questionNames.findIndex((n, i) => i > index && !Object.hasOwn(answers, n));
      setDraft({ source, position: item.position, answers, current: advance && following >= 0 ? following : index });
    },
    /** Takes back a question's answer (a box question whose boxes were all removed). */
    unset(name: string) {
      if (!item || !Object.hasOwn(held.answers, name)) return;
      const answers = Object.fromEntries(Object.entries(held.answers).filter(([n]) => n !== name));
      setDraft({ ...held, source, position: item.position, answers });
    },
    focus(index: number) {
      if (item && index >= 0 && index < questionNames.length) setDraft({ ...held, current: index });
    },
    commit(flagged: boolean) {
      if (!item || !datasetId || busy) return;
      answer.reset();
      answer.mutate({ datasetId, questionSetId, position: item.position, answers: held.answers, flagged });
    },
    skip() {
      if (!item || !datasetId || busy) return;
      skip.mutate({ datasetId, position: item.position });
    },
    /** Leaves the committed item for the next one (already asked for). */
    proceed() {
      setCommitted(null);
    },
    /** Asks again for the item held: after the review_blind setting changed, it comes with the model's answer or without. */
    reload() {
      if (item) setPlace({ source, after: item.position - 1, round: here.round + 1 });
    },
  };
}

export type ReviewSession = ReturnType<typeof useReviewSession>;
