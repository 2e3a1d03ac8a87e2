/**
 * The reviews domain: people answering a dataset's unlabelled items one at a time (captured live
 * requests above all), each item leased to one reviewer at a time across instances, each answer
 * becoming the item's expected answer with who gave it and when. Imports datasets, question sets
 * and the captures' predictions (shown once the reviewer has answered, unless the setting says
 * otherwise).
 */
import { createHash } from 'node:crypto';
import { actorLabel } from '../../../shared/audit/actor-label';
import type { AuditActor } from '../../../shared/schemas/audit';
import type { Expected } from '../../../shared/schemas/evaluation';
import type { Question } from '../../../shared/schemas/question';
import type { ReviewAnswered, ReviewNext, ReviewPrediction } from '../../../shared/schemas/review';
import { isoTime, type Clock } from '../clock';
import type { Captures } from '../captures/captures';
import { checkExpected } from '../datasets/dataset-rows';
import type { Datasets } from '../datasets/datasets';
import { GatewayError } from '../errors';
import type { QuestionSets } from '../question-sets/question-sets';
import { agreement, type QuestionAgreement } from './agreement';
import type { ReviewStorage } from './storage';

/** How long an item stays with the reviewer who opened it. */
export const LEASE_MS = 10 * 60 * 1000;

export interface ReviewDeps {
  readonly clock: Clock;
  readonly datasets: Datasets;
  readonly questionSets: QuestionSets;
  readonly captures: Pick<Captures, 'predictions'>;
  /** Whether the model's answer waits until the reviewer has given theirs (the `review_blind` setting). */
  blind(): boolean;
  /** The share of items a second reviewer answers too (the `review_double_share` setting). */
  doubleShare(): number;
  /** Told of each item answered or flagged (the human stage posts it to its webhook). */
  reviewed(datasetId: string, position: number): void;
}

/** Who answered, as the review keeps it: a management key by its name and id, else where the change came from. */
export const reviewerOf = (actor: AuditActor): string => (actor.kind === 'management_key' ? `${actor.key_name} (${actor.key_id})` : actorLabel(actor));

export class Reviews {
  constructor(
    private readonly storage: ReviewStorage,
    private readonly deps: ReviewDeps,
  ) {}

  /** The next open item after `after`, leased to the reviewer; null when none is left. */
  async next(actor: AuditActor, input: { dataset_id: string; question_set_id?: string | undefined; after: number }): Promise<ReviewNext> {
    await this.deps.datasets.get(input.dataset_id);
    const now = this.deps.clock.now();
    const position = await this.storage.claim(input.dataset_id, reviewerOf(actor), input.after, now, now + LEASE_MS);
    const counts = await this.storage.counts(input.dataset_id);
    if (position === null) return { item: null, counts };
    const item = await this.deps.datasets.item(input.dataset_id, position);
    const { questions, from, prediction } = await this.questionsOf(input.dataset_id, position, input.question_set_id);
    return {
      item: {
        position,
        id: item.id,
        state: item.state,
        questions,
        questions_from: from,
        prediction: this.deps.blind() ? null : prediction,
        has_prediction: prediction !== null,
      },
      counts,
    };
  }

  /** Keeps the reviewer's answers as the item's expected answers (none when flagged); the model's answer comes back with them. */
  async answer(
    actor: AuditActor,
    input: { dataset_id: string; position: number; answers: Record<string, unknown>; flagged: boolean; question_set_id?: string | undefined },
  ): Promise<ReviewAnswered> {
    const item = await this.deps.datasets.item(input.dataset_id, input.position);
    const { questions, prediction } = await this.questionsOf(input.dataset_id, input.position, input.question_set_id);
    const answers = input.flagged ? {} : checkedAnswers(questions, input.answers);
    const review = {
      position: input.position,
      reviewer: reviewerOf(actor),
      at: isoTime(this.deps.clock),
      answers,
      flagged: input.flagged,
      // Kept only on an item's first review (the store decides which this is); a flagged item wants no second.
      second_wanted: !input.flagged && chosenForSecond(input.dataset_id, item.id, this.deps.doubleShare()),
    };
    const outcome = await this.storage.write(input.dataset_id, review, this.deps.clock.now());
    if (outcome === 'already_reviewed') throw new GatewayError('bad_request', `item "${item.id}" (position ${input.position}): already reviewed or labelled`);
    if (outcome === 'leased_to_another') throw new GatewayError('bad_request', `item "${item.id}" (position ${input.position}): another reviewer has it open`);
    if (outcome === 'no_item') throw new GatewayError('not_found', `No item at position ${input.position} of dataset "${input.dataset_id}"`);
    this.deps.reviewed(input.dataset_id, input.position);
    return { review, prediction, counts: await this.storage.counts(input.dataset_id) };
  }

  /** How reviewers agreed, per question, on the items two of them answered (double review). */
  async agreement(datasetId: string): Promise<QuestionAgreement[]> {
    await this.deps.datasets.get(datasetId);
    return agreement(await this.storage.reviews(datasetId, null));
  }

  /** Gives the item back without answering (a skip): it stays open for anyone. */
  async skip(actor: AuditActor, input: { dataset_id: string; position: number }): Promise<{ skipped: true }> {
    await this.storage.release(input.dataset_id, input.position, reviewerOf(actor));
    return { skipped: true };
  }

  /**
   * Gives back the item the reviewer holds as they leave (another screen or dataset, the tab
   * closed), so another reviewer gets it now rather than when the lease runs out. Only this
   * reviewer's lease: another's, or none, is left as it is (released: false). Asked as a page
   * goes away, so an unknown dataset is no error either: there is nothing of it to give back.
   */
  async release(actor: AuditActor, input: { dataset_id: string; position: number }): Promise<{ released: boolean }> {
    return { released: await this.storage.release(input.dataset_id, input.position, reviewerOf(actor)) };
  }

  /** The item's questions (its captured request's, else the question set's) and its captured answers, if any. */
  private async questionsOf(
    datasetId: string,
    position: number,
    questionSetId: string | undefined,
  ): Promise<{ questions: Record<string, Question>; from: 'capture' | 'question_set'; prediction: ReviewPrediction | null }> {
    const [captured] = await this.deps.captures.predictions(datasetId, [position]);
    const prediction = captured ? { model: captured.model, provider: captured.provider, answers: captured.answers as Record<string, unknown> } : null;
    if (questionSetId !== undefined)
      return { questions: (await this.deps.questionSets.get(questionSetId)).request.questions, from: 'question_set', prediction };
    if (captured) return { questions: captured.questions as Record<string, Question>, from: 'capture', prediction };
    throw new GatewayError('bad_request', 'question_set_id: this item was not captured with its questions; choose the question set to review it with');
  }
}

/** Whether an item is one of the share a second reviewer answers: the same items whoever asks, whichever instance. */
export function chosenForSecond(datasetId: string, itemId: string, share: number): boolean {
  if (share <= 0) return false;
  const fraction = createHash('sha256').update(`${datasetId}\u0000${itemId}`).digest().readUInt32BE(0) / 2 ** 32;
  return fraction < share;
}

/** Every question answered, each as its kind's expected answer; a refusal names the question and what is wrong. */
function checkedAnswers(questions: Record<string, Question>, answers: Record<string, unknown>): Expected {
  const problems: string[] = [];
  const checked: Expected = {};
  for (const name of Object.keys(answers)) if (!Object.hasOwn(questions, name)) problems.push(`answers.${name}: the item has no question "${name}"`);
  for (const [name, question] of Object.entries(questions)) {
    if (!Object.hasOwn(answers, name)) {
      problems.push(`answers.${name}: no answer (answer every question, or flag the item)`);
      continue;
    }
    const result = checkExpected(question, answers[name]);
    if ('message' in result) problems.push(`answers.${name}: ${result.message}`);
    else checked[name] = result.value;
  }
  if (problems.length > 0) throw new GatewayError('bad_request', problems.join('; '));
  return checked;
}
