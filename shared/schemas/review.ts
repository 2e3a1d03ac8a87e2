import { z } from 'zod';
import { QuestionSchema } from './question';

const DatasetIdSchema = z.string().min(1, 'a dataset id');
const PositionSchema = z.number().int('a whole number').min(0, 'a position from 0');

/** How a dataset stands in review: items with no answers and no review, items reviewed, and of those flagged. */
export const ReviewCountsSchema = z.object({
  open: z.number().int(),
  reviewed: z.number().int(),
  flagged: z.number().int(),
  /** items answered once that a second reviewer is to answer too (double review) */
  second_open: z.number().int(),
});
export type ReviewCounts = z.infer<typeof ReviewCountsSchema>;

/** What answered an item live (a captured request's answers): a prediction, never a label. */
export const ReviewPredictionSchema = z.object({ model: z.string(), provider: z.string().nullable(), answers: z.record(z.string(), z.unknown()) });
export type ReviewPrediction = z.infer<typeof ReviewPredictionSchema>;

/**
 * The next item to review: the first open one after `after`, leased to this reviewer (no other sees
 * it for 10 minutes). Its questions are the captured request's, else the question set's
 * (`question_set_id`, needed for items that were not captured).
 */
export const ReviewNextInputSchema = z.strictObject({
  dataset_id: DatasetIdSchema,
  question_set_id: z.string().min(1).optional(),
  after: z.number().int().min(-1).default(-1),
});

export const ReviewItemSchema = z.object({
  position: z.number().int(),
  id: z.string(),
  state: z.unknown(),
  questions: z.record(z.string(), QuestionSchema),
  /** where the questions came from */
  questions_from: z.enum(['capture', 'question_set']),
  /** the captured answers, when shown before the reviewer answers (the `review_blind` setting off); else null */
  prediction: ReviewPredictionSchema.nullable(),
  /** whether the item was captured with answers to show once the reviewer has given theirs */
  has_prediction: z.boolean(),
});
export type ReviewItem = z.infer<typeof ReviewItemSchema>;

export const ReviewNextSchema = z.object({ item: ReviewItemSchema.nullable(), counts: ReviewCountsSchema });
export type ReviewNext = z.infer<typeof ReviewNextSchema>;

/**
 * A reviewer's answers to the item they hold: each question's answer as a dataset's expected answer
 * (yes/no true or false, an option's name, a level's index, a box of fractions), or `flagged` (the
 * item cannot be answered as asked: it leaves the queue with no answers).
 */
export const ReviewAnswerInputSchema = z.strictObject({
  dataset_id: DatasetIdSchema,
  position: PositionSchema,
  answers: z.record(z.string(), z.unknown()).default({}),
  flagged: z.boolean().default(false),
  question_set_id: z.string().min(1).optional(),
});

export const ReviewSchema = z.object({
  position: z.number().int(),
  reviewer: z.string(),
  at: z.string(),
  answers: z.record(z.string(), z.unknown()),
  flagged: z.boolean(),
  second_wanted: z.boolean(),
});
export type Review = z.infer<typeof ReviewSchema>;

export const ReviewAnsweredSchema = z.object({ review: ReviewSchema, prediction: ReviewPredictionSchema.nullable(), counts: ReviewCountsSchema });
export type ReviewAnswered = z.infer<typeof ReviewAnsweredSchema>;

export const ReviewSkipInputSchema = z.strictObject({ dataset_id: DatasetIdSchema, position: PositionSchema });

/** The item a reviewer holds, given back as they leave the Review screen (another screen, another dataset, the tab closed). */
export const ReviewReleaseInputSchema = z.strictObject({ dataset_id: DatasetIdSchema, position: PositionSchema });
/** Whether this reviewer held the item: false when nothing was theirs to give back (answered, taken over after their lease ran out, never held). */
export const ReviewReleasedSchema = z.object({ released: z.boolean() });

/** How two reviewers agreed on one question over the items both answered (double review): Cohen's kappa with its 95% interval. */
export const QuestionAgreementSchema = z.object({
  question: z.string(),
  pairs: z.number().int(),
  observed: z.number().nullable(),
  kappa: z.number().nullable(),
  low: z.number().nullable(),
  high: z.number().nullable(),
});

/** A queue's figures: requests waiting for a person, the oldest one's age, and how many were first answered in the last hour. */
const QueueFiguresSchema = z.object({ pending: z.number().int(), oldest_pending_seconds: z.number().nullable(), reviewed_last_hour: z.number().int() });

/** The human stage's queue, in all and for each cascade preset that sent requests to it. */
export const HumanQueueSchema = QueueFiguresSchema.extend({ by_preset: z.array(QueueFiguresSchema.extend({ preset: z.string() })) });
export type HumanQueue = z.infer<typeof HumanQueueSchema>;
