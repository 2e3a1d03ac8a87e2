import type { DecisionsRequest } from '../../../shared/schemas/decisions-request';
import type { DecisionsResponse } from '../../../shared/schemas/decisions-response';
import { isoTime, type Clock } from '../clock';
import type { Captures } from '../captures/captures';
import { capturedState } from '../captures/content';
import type { Datasets } from '../datasets/datasets';
import { GatewayError } from '../errors';
import type { Logger } from '../logger';
import type { OutboundOptions } from '../net/public-target';
import type { HumanQueueFigures, HumanReviewStorage } from './human-storage';

/** A queue's figures as an operator reads them. */
export interface QueueFigures {
  pending: number;
  oldest_pending_seconds: number | null;
  reviewed_last_hour: number;
}
import type { ReviewStorage } from './storage';
import { deliver, RETRY_AFTER_MS, type Webhook } from './webhook';

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
    private readonly deps: {
      clock: Clock;
      logger: Logger;
      datasets: Datasets;
      captures: Pick<Captures, 'keepPrediction' | 'predictions'>;
      reviews: ReviewStorage;
      /** How webhook hosts are reached (as image URLs are). */
      outbound: () => OutboundOptions;
    },
  ) {}

  private readonly deliveries = new Set<Promise<void>>();

  /** Queues the request for people; its review id. Written before the caller is answered, so an id given out is never lost. */
  async enqueue(call: {
    request: DecisionsRequest;
    response: DecisionsResponse;
    keyId: string;
    requestId: string;
    webhook: Webhook | null;
    /** the cascade preset the request named, if any */
    preset: string | null;
  }): Promise<string> {
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
      outcome: null,
    });
    await this.storage.add({ id: call.requestId, dataset_id: queue.id, position: added!.position, created_at: at, webhook: call.webhook, preset: call.preset });
    return call.requestId;
  }

  /**
   * After a person answered an item: when it came through the human stage with a webhook, its state
   * is posted there, signed, in the background (tried again after 2 s and 10 s; failures logged).
   */
  reviewed(datasetId: string, position: number): void {
    const delivery = (async () => {
      const found = await this.storage.atItem(datasetId, position);
      if (!found?.webhook) return;
      const body = JSON.stringify({ type: 'review.answered', data: await this.stateOf(found.id) });
      for (let attempt = 0; ; attempt += 1) {
        if (await deliver(found.webhook, body, this.deps.clock.now(), this.deps.outbound())) return;
        const wait = RETRY_AFTER_MS[attempt];
        if (wait === undefined) {
          this.deps.logger.warn({ review_id: found.id, attempts: attempt + 1 }, 'review webhook not delivered');
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, wait).unref());
      }
    })().catch((error: unknown) => this.deps.logger.warn({ err: error }, 'review webhook failed'));
    this.deliveries.add(delivery);
    void delivery.finally(() => this.deliveries.delete(delivery));
  }

  /**
   * The queue as an operator watches it: requests waiting for a person, the oldest one's age, and how
   * many people first answered in the last hour; in all, and for each cascade preset that sent some.
   */
  async figures(): Promise<QueueFigures & { by_preset: (QueueFigures & { preset: string })[] }> {
    const now = this.deps.clock.now();
    const groups = await this.storage.figures(new Date(now - 3_600_000).toISOString());
    const age = (at: string | null) => (at === null ? null : Math.max(0, Math.round((now - Date.parse(at)) / 1000)));
    const oldest = groups.map((g) => g.oldest_pending_at).filter((at): at is string => at !== null);
    const of = (g: Pick<HumanQueueFigures, 'pending' | 'oldest_pending_at' | 'reviewed_since'>): QueueFigures => ({
      pending: g.pending,
      oldest_pending_seconds: age(g.oldest_pending_at),
      reviewed_last_hour: g.reviewed_since,
    });
    return {
      ...of({
        pending: groups.reduce((n, g) => n + g.pending, 0),
        oldest_pending_at: oldest.length > 0 ? oldest.reduce((a, b) => (a < b ? a : b)) : null,
        reviewed_since: groups.reduce((n, g) => n + g.reviewed_since, 0),
      }),
      by_preset: groups.flatMap((g) => (g.preset === null ? [] : [{ preset: g.preset, ...of(g) }])),
    };
  }

  /** Resolves once every delivery under way has ended (delivered, or given up). */
  async settled(): Promise<void> {
    await Promise.all([...this.deliveries]);
  }

  /** Where a human-stage request stands; only the key that made it, or a management key, may ask. */
  async state(id: string, asker: { id: string; kind: string }): Promise<HumanReviewState> {
    const state = await this.stateOf(id).catch(() => null);
    if (!state || (asker.kind !== 'management' && state.key_id !== asker.id)) throw new GatewayError('not_found', `No review "${id}" for this key`);
    return state;
  }

  private async stateOf(id: string): Promise<HumanReviewState> {
    const found = await this.storage.get(id);
    const [prediction] = found ? await this.deps.captures.predictions(found.dataset_id, [found.position]) : [];
    if (!found || !prediction) throw new GatewayError('not_found', `No review "${id}"`);
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
