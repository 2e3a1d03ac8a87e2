import { z } from 'zod';
import { DatasetSummarySchema, EvalRunSchema } from '../schemas/evaluation';
import { BoxItemSchema, ImageDataUrlSchema, TruthBoxSchema } from '../schemas/inspector';

type Kind = 'query' | 'mutation';
const op = <I extends z.ZodType, O extends z.ZodType>(kind: Kind, summary: string, input: I, output: O) => ({ kind, summary, input, output });

/** Which answers of a dataset are under review: one model (variant) of one evaluation run, or none yet. */
const answersOf = { run_id: z.string().nullable().default(null), variant: z.number().int().min(0).default(0) };
const position = z.number().int().min(0);

/**
 * Box review over datasets: the images are dataset items, the truth drawn is each item's expected
 * answer by box question, the answers are an evaluation run's, and the verdicts are kept beside them.
 */
export const BOX_REVIEW_OPERATIONS = {
  'boxReview.datasets': op('query', 'Datasets whose items are images, for box review', z.object({}).strict(), z.array(DatasetSummarySchema)),
  'boxReview.items': op(
    'query',
    "A dataset's items as box reviews, without images: expected boxes as labelled truth, one evaluation run's box answers, verdicts (stale when the answers they judged changed); id is the item's position",
    z.object({ dataset_id: z.string(), ...answersOf }).strict(),
    z.array(BoxItemSchema),
  ),
  'boxReview.image': op(
    'query',
    'The image of one dataset item',
    z.object({ dataset_id: z.string(), position }).strict(),
    z.object({ id: z.string(), data_url: z.string() }),
  ),
  'boxReview.update': op(
    'mutation',
    "Write one item's truth (as its expected box answers; other expected answers are kept), or a verdict and its note on the answers under review: on the whole image, or on one `question`'s answer. A verdict is set (the same one again keeps it and its note), null clears it; a replaced or cleared verdict goes to the item's history with its note",
    z
      .object({
        dataset_id: z.string(),
        position,
        ...answersOf,
        truth: z.array(TruthBoxSchema).max(50).optional(),
        /** the box question judged; absent: the whole image */
        question: z.string().min(1).max(200).optional(),
        verdict: z.enum(['accepted', 'rejected']).nullable().optional(),
        note: z.string().max(2000).optional(),
      })
      .strict(),
    BoxItemSchema,
  ),
  'boxReview.addImages': op(
    'mutation',
    'Add images as items of a dataset (a new one named `name` when dataset_id is absent), a few at a time',
    z
      .object({
        dataset_id: z.string().optional(),
        name: z.string().trim().min(1).max(200),
        images: z
          .array(z.object({ name: z.string().min(1).max(300), data_url: ImageDataUrlSchema }).strict())
          .min(1)
          .max(200),
      })
      .strict(),
    DatasetSummarySchema,
  ),
  'boxReview.runImage': op(
    'mutation',
    "Send one item again to models of a stopped evaluation run over its dataset (all of the run's models unless `variants` names some): each new answer replaces the stored one, so verdicts on the old ones show as stale",
    z.object({ dataset_id: z.string(), position, run_id: z.string(), variants: z.array(z.number().int().min(0)).min(1).max(16).optional() }).strict(),
    EvalRunSchema,
  ),
  'boxReview.fromLegacy': op(
    'mutation',
    'Copy the images added to Boxes before it opened datasets into a new dataset: each labelled truth box as the expected answer of the box question it names (an unlabelled one and a lone answer as that of `question`), verdicts and notes kept with the boxes they judged',
    z.object({ name: z.string().trim().min(1).max(200), question: z.string().trim().min(1).max(200).default('box') }).strict(),
    DatasetSummarySchema,
  ),
} as const;
