import type { DecisionsRequest } from '../../../shared/schemas/decisions-request';
import type { DecisionsResponse } from '../../../shared/schemas/decisions-response';
import { isoTime, type Clock } from '../clock';
import type { Captures } from '../captures/captures';
import { capturedState } from '../captures/content';
import type { Datasets } from '../datasets/datasets';
import { GatewayError } from '../errors';
import type { HumanReviewStorage } from './human-storage';
import type { ReviewStorage } from './storage';

/** The dataset a cascade's human stage sends requests to: one queue, made on first use. */
export const HUMAN_QUEUE = { id: 'ds-human-review', name: 'Human review' } as const;

/** A human-stage request as its caller reads it back (`GET /api/v1/reviews/{id}`). */
export interface HumanReviewState {
  id: string;
  status: 'pending' | 'answered' | 'flagged';
  created_at: string;
  /** The person's answers, once given (as a dataset's expected answers). */
  answers: Record<string, unknown> | null;
  reviewer: string | null;
  reviewed_at: string | null;
  /** What the first model answered, which the caller was given as provisional. */
  provisional: { model: string; answers: Record<string, unknown> };
  /** The key that made the request. */
  key_id: string;
}

/**
 * A cascade's `human` stage: a request whose first answers met the condition joins the review queue
 * (the Human review dataset, its answers kept as the prediction) before its caller is answered with
 * those answers marked provisional and the review id (the request's id); the caller reads the
 * person's answers back by that id once someone has given them.
 */
export class HumanStage {
  constructor(
    private readonly storage: HumanReviewStorage,
    private readonly deps: { clock: Clock; datasets: Datasets; captures: Pick<Captures, 'keepPrediction' | 'predictions'>; reviews: ReviewStorage },
  ) {}

  /** Queues the request for people; its review id. Written before the caller is answered, so an id given out is never lost. */
  async enqueue(call: { request: DecisionsRequest; response: DecisionsResponse; keyId: string; requestId: string }): Promise<string> {
    const queue = await this.deps.datasets.ensure(HUMAN_QUEUE.id, HUMAN_QUEUE.name);
    const [added] = await this.deps.datasets.addItems(queue.id, [{ id: call.requestId, state: capturedState(call.request, true) }]);
    const at = isoTime(this.deps.clock);
    await this.deps.captures.keepPrediction(queue.id, {
      position: added!.position,
      rule_id: 'human-stage',
      request_id: call.requestId,
      key_id: call.keyId,
      model: call.response.model,
      provider: call.response.provider ?? null,
      cost: call.response.usage.cost ?? null,
      captured_at: at,
      questions: call.request.questions,
      answers: call.response.answers,
    });
    await this.storage.add({ id: call.requestId, dataset_id: queue.id, position: added!.position, created_at: at });
    return call.requestId;
  }

  /** Where a human-stage request stands; only the key that made it, or a management key, may ask. */
  async state(id: string, asker: { id: string; kind: string }): Promise<HumanReviewState> {
    const found = await this.storage.get(id);
    const [prediction] = found ? await this.deps.captures.predictions(found.dataset_id, [found.position]) : [];
    if (!found || !prediction || (asker.kind !== 'management' && prediction.key_id !== asker.id)) {
      throw new GatewayError('not_found', `No review "${id}" for this key`);
    }
    const [review] = await this.deps.reviews.reviews(found.dataset_id, [found.position]);
    return {
      id,
      status: !review ? 'pending' : review.flagged ? 'flagged' : 'answered',
      created_at: found.created_at,
      answers: review && !review.flagged ? review.answers : null,
      reviewer: review?.reviewer ?? null,
      reviewed_at: review?.at ?? null,
      provisional: { model: prediction.model, answers: prediction.answers as Record<string, unknown> },
      key_id: prediction.key_id,
    };
  }
}
