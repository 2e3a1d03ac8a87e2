import { SandboxNotice } from '../settings';
import { EmptyState, ErrorNotice, Loading, Panel, ScreenHeader } from '../../ui/components';
import { CommittedPanel } from './CommittedPanel';
import { ItemPanel } from './ItemPanel';
import { HumanQueue } from './HumanQueue';
import { ReviewCounts } from './ReviewCounts';
import { ReviewSourceBar } from './ReviewSourceBar';
import { useReleaseOnLeave } from './use-release-on-leave';
import { useReviewKeys } from './use-review-keys';
import { useReviewSession, type ReviewSession } from './use-review-session';
import { HUMAN_REVIEW_DATASET, useReviewSource, type ReviewSource } from './use-review-source';
import './review.css';

/** Whether the server asked for a question set: the items were not captured with their questions. */
const asksForSet = (session: ReviewSession) => session.next.error?.message.includes('question_set_id') ?? false;

/** The item held, the one just committed, or why there is none. */
function ReviewBody({ source, session }: { source: ReviewSource; session: ReviewSession }) {
  if (session.committed) return <CommittedPanel committed={session.committed} onNext={session.proceed} />;
  if (source.datasets.isPending) return <Loading what="the datasets" />;
  if (source.datasets.error) return <ErrorNotice error={source.datasets.error} title="The datasets could not be listed" />;
  if (source.datasetId === null)
    return (
      <Panel title="Items">
        <EmptyState title="No datasets">
          Make a capture rule in Settings → Capture rules: the live requests it captures fill a dataset to review here. Datasets imported in Evaluations open
          here too.
        </EmptyState>
      </Panel>
    );
  if (session.next.isPending) return <Loading what="the next item" />;
  if (session.next.error)
    return (
      <ErrorNotice error={session.next.error} title={asksForSet(session) ? 'Choose a question set above to review these items' : 'No item could be opened'} />
    );
  if (session.item) return <ItemPanel item={session.item} session={session} />;
  return (
    <Panel title="Items">
      <EmptyState title="No open items">
        {session.counts && session.counts.open > 0
          ? `${session.counts.open} open item${session.counts.open === 1 ? ' is' : 's are'} held by other reviewers for now.`
          : 'Every item of this dataset has expected answers or a review. New captures will appear here.'}
      </EmptyState>
    </Panel>
  );
}

/** Reviewers answer a dataset's unlabelled items one at a time, keyboard first; each answer becomes the item's expected answer. */
export function ReviewScreen() {
  const source = useReviewSource();
  const session = useReviewSession(source.datasetId, source.questionSetId);
  useReviewKeys(session);
  useReleaseOnLeave(source.datasetId, source.questionSetId, session.item?.position ?? null, session.reload);
  return (
    <>
      <ScreenHeader
        title="Review"
        description="Answer a dataset's unlabelled items one at a time (captured live requests above all): each answer becomes the item's expected answer, and the model's answer shows once yours is in."
      />
      <SandboxNotice />
      <ReviewSourceBar source={source} asksForSet={asksForSet(session)} onBlindChanged={session.reload} />
      <ReviewCounts counts={session.counts} />
      {/* The human stage's queue: what each preset sent, how long the oldest has waited. */}
      {source.datasetId === HUMAN_REVIEW_DATASET ? <HumanQueue /> : null}
      <ReviewBody source={source} session={session} />
    </>
  );
}
