/**
 * The reviews domain, wired: the review queue (leases, answers, agreement) and the cascades' human
 * stage, which hears of each answer to post it to its webhook.
 */
import type { Captures } from '../captures/captures';
import type { Clock } from '../clock';
import type { Datasets } from '../datasets/datasets';
import type { Logger } from '../logger';
import type { OutboundOptions } from '../net/public-target';
import type { QuestionSets } from '../question-sets/question-sets';
import type { SettingsStore } from '../settings/settings';
import type { Storage } from '../store/ports';
import { HumanStage } from './human-stage';
import { Reviews } from './reviews';

export interface ReviewsDeps {
  storage: Pick<Storage, 'reviews' | 'humanReviews'>;
  clock: Clock;
  logger: Logger;
  datasets: Datasets;
  questionSets: QuestionSets;
  captures: Captures;
  settings: SettingsStore;
  /** How webhook hosts are reached: as image URLs are (tests pass their own look-up and CA). */
  options: { readonly imageFetch?: OutboundOptions | undefined };
}

export function wireReviews(deps: ReviewsDeps): { reviews: Reviews; humanStage: HumanStage } {
  const { storage, clock, datasets, captures, settings } = deps;
  const humanStage = new HumanStage(storage.humanReviews, {
    clock,
    logger: deps.logger,
    datasets,
    captures,
    reviews: storage.reviews,
    outbound: () => deps.options.imageFetch ?? {},
  });
  const reviews = new Reviews(storage.reviews, {
    clock,
    datasets,
    questionSets: deps.questionSets,
    captures,
    blind: () => settings.get().review_blind,
    doubleShare: () => settings.get().review_double_share,
    reviewed: (datasetId, position) => humanStage.reviewed(datasetId, position),
  });
  return { reviews, humanStage };
}
