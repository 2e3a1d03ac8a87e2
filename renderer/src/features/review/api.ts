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
 * This reviewer's leases and releases, one after another: a release asked before a lease reaches
 * the server first, so it never gives back the item that lease has just taken again (a question set
 * changed in the same dataset finds the same first item).
 */
let turns: Promise<unknown> = Promise.resolve();
function inTurn<T>(work: () => Promise<T>): Promise<T> {
  const run = turns.then(work);
  turns = run.catch(() => undefined);
  return run;
}

/** Gives back the item held as the reviewer leaves it (the screen closed, another dataset or question set). */
export function releaseItem(datasetId: string, position: number): void {
  releaseWhenLeased(datasetId, Promise.resolve(position));
}

/** Gives back the item a lease took, in its turn now: before any lease asked after this. */
function releaseWhenLeased(datasetId: string, leased: Promise<number | null>): void {
  inTurn(async () => {
    const position = await leased.catch(() => null);
    if (position !== null) await call('review.release', { dataset_id: datasetId, position });
  }).catch(() => undefined);
}

async function leaseNext(cursor: ReviewCursor): Promise<ReviewNext> {
  const input = { dataset_id: cursor.datasetId, ...(cursor.questionSetId ? { question_set_id: cursor.questionSetId } : {}) };
  const next = await call('review.next', { ...input, after: cursor.after });
  if (next.item || cursor.after < 0 || next.counts.open === 0) return next;
  return call('review.next', { ...input, after: -1 });
}

/**
 * The next open item after the cursor, leased to this reviewer. Past the last one it starts again
 * from the first (an item skipped earlier is open again), once. Read once per cursor: asking again
 * leases again, so it is never read again on its own, and forgotten once the screen is left; left
 * before the answer came, the item it leased is given back.
 */
export const nextItemQuery = (cursor: ReviewCursor) =>
  queryOptions({
    queryKey: [...reviewKeys.all, 'next', cursor] as const,
    queryFn: ({ signal }): Promise<ReviewNext> => {
      const leased = inTurn(() => leaseNext(cursor));
      const position = leased.then(
        (next) => next.item?.position ?? null,
        () => null,
      );
      signal.addEventListener('abort', () => releaseWhenLeased(cursor.datasetId, position), { once: true });
      return leased;
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

/** The human stage's queue in all and per cascade preset; read again every 10 s while shown. */
export const humanQueueQuery = () =>
  queryOptions({ queryKey: [...reviewKeys.all, 'human-queue'] as const, queryFn: () => call('review.queue', {}), refetchInterval: 10_000 });
