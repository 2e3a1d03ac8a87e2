import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReviewAnswered, ReviewNext } from '../../../../shared/schemas/review';
import { call } from '../../transport/transport';
import { evalKeys } from '../evaluations';
import { settingsKeys } from '../settings';
import type { Answers } from './review-answers';

export const reviewKeys = {
  all: ['review'] as const,
};

/** Where the reviewer is: a dataset, the question set its uncaptured items are asked with, and the position to look after. */
export interface ReviewCursor {
  datasetId: string;
  questionSetId: string | null;
  after: number;
  /** a new round asks again for the same place (the item held, with the model's answer now shown) */
  round: number;
}

/**
 * The next open item after the cursor, leased to this reviewer. Past the last one it starts again
 * from the first (an item skipped earlier is open again), once. Read once per cursor: asking again
 * leases again, so it is never read again on its own, and forgotten once the screen is left.
 */
export const nextItemQuery = (cursor: ReviewCursor) =>
  queryOptions({
    queryKey: [...reviewKeys.all, 'next', cursor] as const,
    queryFn: async (): Promise<ReviewNext> => {
      const input = { dataset_id: cursor.datasetId, ...(cursor.questionSetId ? { question_set_id: cursor.questionSetId } : {}) };
      const next = await call('review.next', { ...input, after: cursor.after });
      if (next.item || cursor.after < 0 || next.counts.open === 0) return next;
      return call('review.next', { ...input, after: -1 });
    },
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });

export interface Commit {
  datasetId: string;
  questionSetId: string | null;
  position: number;
  answers: Answers;
  flagged: boolean;
}

/** Commits the reviewer's answers (or a flag); the datasets' labelled counts change with it. */
export function useAnswerItem(onAnswered: (answered: ReviewAnswered, commit: Commit) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (commit: Commit) =>
      call('review.answer', {
        dataset_id: commit.datasetId,
        position: commit.position,
        answers: commit.flagged ? {} : { ...commit.answers },
        flagged: commit.flagged,
        ...(commit.questionSetId ? { question_set_id: commit.questionSetId } : {}),
      }),
    onSuccess: (answered, commit) => {
      onAnswered(answered, commit);
      void queryClient.invalidateQueries({ queryKey: evalKeys.datasets });
    },
  });
}

/** Gives the item back unanswered. */
export function useSkipItem(onSkipped: (position: number) => void) {
  return useMutation({
    mutationFn: (input: { datasetId: string; position: number }) => call('review.skip', { dataset_id: input.datasetId, position: input.position }),
    onSuccess: (_skipped, input) => onSkipped(input.position),
  });
}

/** Turns the `review_blind` setting on or off; `onSaved` then asks again for the item held, with the model's answer or without. */
export function useReviewBlind(onSaved: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (blind: boolean) => call('settings.update', { review_blind: blind }),
    onSuccess: (settings) => {
      queryClient.setQueryData(settingsKeys.settings, settings);
      onSaved();
    },
  });
}
