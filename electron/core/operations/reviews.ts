import type { HumanStage } from '../reviews/human-stage';
import type { Reviews } from '../reviews/reviews';
import { actorOf, type Handlers } from './index';

type ReviewOps = Pick<Handlers, 'review.next' | 'review.answer' | 'review.skip' | 'review.release' | 'review.agreement' | 'review.queue'>;

/** What the review operations use. */
export interface ReviewDeps {
  readonly reviews: Reviews;
  readonly humanStage: Pick<HumanStage, 'figures'>;
}

/** Each reviewer is the actor of the call: the desktop app, or the management key a browser signed in with. */
export function reviewHandlers(core: ReviewDeps): ReviewOps {
  return {
    'review.next': async (input, context) => core.reviews.next(actorOf(context, 'review.next'), input),
    'review.answer': async (input, context) => core.reviews.answer(actorOf(context, 'review.answer'), input),
    'review.skip': async (input, context) => core.reviews.skip(actorOf(context, 'review.skip'), input),
    'review.release': async (input, context) => core.reviews.release(actorOf(context, 'review.release'), input),
    'review.agreement': async ({ dataset_id }) => core.reviews.agreement(dataset_id),
    'review.queue': async () => core.humanStage.figures(),
  };
}
