import { z } from 'zod';
import type { OperationName } from './names';
import {
  ApiKeyCreatedSchema,
  ApiKeyCreateInputSchema,
  ApiKeyInfoSchema,
  ApiKeyLimitsInputSchema,
  AppInfoSchema,
  EndpointDetailSchema,
  ModelSummarySchema,
  RoutePlanViewSchema,
  QuestionSetSummarySchema,
  RunSchema,
  RunStatusSchema,
  BoxItemSchema,
  BackupSchema,
  FractionBoxSchema,
  TruthBoxSchema,
  ImageDataUrlSchema,
  ProviderKeyInputSchema,
  ProviderKeyStateSchema,
  ProviderSlugSchema,
  ProviderSummarySchema,
  SettingsPatchSchema,
  SettingsSchema,
} from '../schemas/inspector';
import { AuditListInputSchema, AuditPageSchema } from '../schemas/audit';
import { CaptureMonitorInputSchema, CaptureMonitorSchema, CaptureRuleInputSchema, CaptureRuleSchema } from '../schemas/capture';
import {
  HumanQueueSchema,
  QuestionAgreementSchema,
  ReviewAnsweredSchema,
  ReviewAnswerInputSchema,
  ReviewNextInputSchema,
  ReviewNextSchema,
  ReviewReleasedSchema,
  ReviewReleaseInputSchema,
  ReviewSkipInputSchema,
} from '../schemas/review';
import { ModelWithEndpointsSchema, ModelIdSchema } from '../schemas/model';
import { ZdrListingSchema } from '../schemas/endpoint';
import { CatalogFileSchema } from '../schemas/catalog';
import { DecisionsRequestSchema } from '../schemas/decisions-request';
import { ProviderPreferencesSchema } from '../schemas/provider-preferences';
import { EVAL_OPERATIONS } from './eval-operations';
import { BOX_REVIEW_OPERATIONS } from './box-review-operations';

export type OperationKind = 'query' | 'mutation';

export interface Operation<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  kind: OperationKind;
  summary: string;
  input: I;
  output: O;
}

const op = <I extends z.ZodType, O extends z.ZodType>(kind: OperationKind, summary: string, input: I, output: O): Operation<I, O> => ({
  kind,
  summary,
  input,
  output,
});

const none = z.object({}).strict();
const TrafficProfileSchema = z.object({
  model: z.string(),
  requests: z.number().int(),
  input_tokens: z.number(),
  output_tokens: z.number(),
  /** USD per answered request, over those whose cost is known; null when none is */
  cost_usd: z.number().nullable(),
});
const CostRangeSchema = z.object({ usd: z.number(), low: z.number(), high: z.number(), rate: z.string() });
const ZdrCostSchema = z.object({
  model: z.string(),
  /** whose tokens the requests have: the model's own answered requests here, or the ones typed in */
  traffic: z.object({ source: z.enum(['measured', 'typed']), requests: z.number().int().nullable(), input_tokens: z.number(), output_tokens: z.number() }),
  /** USD per 1,000 requests as routing sends them now, and with ZDR required (each a call of the traffic's tokens); null when a price is unknown or (ZDR) no endpoint retains nothing */
  now: CostRangeSchema.nullable(),
  zdr: CostRangeSchema.nullable(),
  /** the same at the cheapest list price of any endpoint, and of a ZDR one */
  list_now: z.number().nullable(),
  list_zdr: z.number().nullable(),
  /** USD per 1,000 of what the model's answered requests here did cost; null without measured traffic */
  measured: z.number().nullable(),
});

/**
 * The inspector's operation table. IPC channels, HTTP routes and the renderer client are all
 * derived from it; nothing else crosses between renderer and core.
 */
export const OPERATIONS = {
  'app.info': op('query', 'Version, host and where data and secrets live', none, AppInfoSchema),
  'settings.get': op('query', 'Current settings', none, SettingsSchema),
  'settings.update': op('mutation', 'Change some settings', SettingsPatchSchema, SettingsSchema),
  'providers.list': op('query', 'Known providers and whether a key is set', none, z.array(ProviderSummarySchema)),
  'providerKeys.set': op('mutation', 'Store a provider key (write-only)', ProviderKeyInputSchema, ProviderKeyStateSchema),
  'providerKeys.clear': op('mutation', 'Remove a stored provider key', z.object({ provider: ProviderSlugSchema }).strict(), ProviderKeyStateSchema),
  'remoteKey.set': op(
    'mutation',
    "Store the remote gateway's key (write-only)",
    z.object({ key: ProviderKeyInputSchema.shape.key }).strict(),
    z.object({ key_set: z.boolean() }),
  ),
  'remoteKey.clear': op('mutation', "Remove the remote gateway's key", none, z.object({ key_set: z.boolean() })),
  'apiKeys.list': op('query', 'Keys of the HTTP API server', none, z.array(ApiKeyInfoSchema)),
  'apiKeys.create': op('mutation', 'Create an API key; its secret is shown once', ApiKeyCreateInputSchema, ApiKeyCreatedSchema),
  'apiKeys.revoke': op('mutation', 'Revoke an API key', z.object({ id: z.string().min(1) }).strict(), ApiKeyInfoSchema),
  'apiKeys.updateLimits': op(
    'mutation',
    "Change an API key's credit and rate limits (null: no limit)",
    ApiKeyLimitsInputSchema.extend({ id: z.string().min(1) }).strict(),
    ApiKeyInfoSchema,
  ),
  'audit.list': op('query', 'Who created, changed or revoked keys, limits, sets and datasets, newest first', AuditListInputSchema, AuditPageSchema),
  'captures.list': op(
    'query',
    'Capture rules: which live requests become dataset items, with what each took today and holds',
    none,
    z.array(CaptureRuleSchema),
  ),
  'captures.create': op(
    'mutation',
    "Make a capture rule (and its dataset, unless it names one); live requests it picks become the dataset's items",
    CaptureRuleInputSchema,
    CaptureRuleSchema,
  ),
  'captures.delete': op(
    'mutation',
    'Remove a capture rule; what it captured stays in its dataset',
    z.object({ id: z.string().min(1) }).strict(),
    z.object({ id: z.string(), name: z.string() }),
  ),
  'captures.monitor': op(
    'query',
    "A capture rule's live answers over the last hour, day or week beside a reference window: each question's answer shares, mean confidence and drift (yes-rate change, PSI, box move) with an alert past its threshold",
    CaptureMonitorInputSchema,
    CaptureMonitorSchema,
  ),
  'review.next': op(
    'mutation',
    'The next open item of a dataset after a position, leased to this reviewer for 10 minutes (no other reviewer gets it), with its questions',
    ReviewNextInputSchema,
    ReviewNextSchema,
  ),
  'review.answer': op(
    'mutation',
    "A reviewer's answers to the item they hold: they become its expected answers, with who and when (or the item is flagged); the model's answer comes back",
    ReviewAnswerInputSchema,
    ReviewAnsweredSchema,
  ),
  'review.skip': op('mutation', 'Give an item back without answering it', ReviewSkipInputSchema, z.object({ skipped: z.literal(true) })),
  'review.release': op(
    'mutation',
    "Give back the item this reviewer holds as they leave review (another screen or dataset, the tab closed): at once open to others; nothing changes when the lease is not this reviewer's",
    ReviewReleaseInputSchema,
    ReviewReleasedSchema,
  ),
  'review.agreement': op(
    'query',
    "How reviewers agreed per question on the items two of them answered (the review_double_share setting): Cohen's kappa with its 95% interval",
    z.strictObject({ dataset_id: z.string().min(1) }),
    z.array(QuestionAgreementSchema),
  ),
  'review.queue': op(
    'query',
    "The human stage's queue: requests waiting for a person, the oldest one's age and how many were answered in the last hour, in all and per cascade preset",
    none,
    HumanQueueSchema,
  ),
  'models.list': op('query', 'Models in the catalog', none, z.array(ModelSummarySchema)),
  'models.endpoints': op('query', 'One model with every endpoint serving it (spec 4.2)', z.object({ model: ModelIdSchema }).strict(), ModelWithEndpointsSchema),
  'endpoints.details': op(
    'query',
    "What the UI shows beside each endpoint's record",
    z.object({ model: ModelIdSchema }).strict(),
    z.array(EndpointDetailSchema),
  ),
  'endpoints.zdr': op('query', 'Endpoints that retain no prompts (spec 4.3)', none, ZdrListingSchema),
  'usage.traffic': op(
    'query',
    "The user's own traffic per model: requests answered and their mean input and output tokens (inspector and evaluation runs)",
    none,
    z.object({ models: z.array(TrafficProfileSchema), all: TrafficProfileSchema.nullable() }),
  ),
  'usage.zdr_cost': op(
    'query',
    "What 1,000 requests like the user's cost per model as routed now and with zero data retention required, asked of the cost model (routing's own planner, each endpoint's fault rate); the cheapest list price beside each",
    z
      .object({
        typed: z
          .object({ input_tokens: z.number().min(0).max(10_000_000), output_tokens: z.number().min(0).max(10_000_000) })
          .strict()
          .nullable(),
      })
      .strict(),
    z.array(ZdrCostSchema),
  ),
  'endpoints.probe': op(
    'mutation',
    'Measure every endpoint of a model with a few small calls',
    z.object({ model: ModelIdSchema, calls: z.number().int().min(1).max(20).default(3) }).strict(),
    z.object({
      attempts: z.number().int(),
      failures: z.number().int(),
      failed: z.array(z.object({ tag: z.string(), provider_name: z.string(), reason: z.string() })),
      /** USD the answered measuring calls cost, priced as any request is charged; null when a price is unknown */
      spent_usd: z.number().nullable(),
    }),
  ),
  'endpoints.probeCost': op(
    'query',
    'What measuring every endpoint of a model will cost at most, before anything is sent: each endpoint priced for its measuring call (a chat call at its output cap)',
    z.object({ model: ModelIdSchema, calls: z.number().int().min(1).max(20).default(3) }).strict(),
    z.object({
      endpoints: z.number().int(),
      calls: z.number().int(),
      /** USD at most; null when an endpoint's price is unknown (named in `unpriced`) */
      usd_at_most: z.number().nullable(),
      unpriced: z.array(z.string()),
    }),
  ),
  'endpoints.uptime': op(
    'query',
    "Each endpoint's attempts and provider faults over time (uptime history)",
    z.object({ model: ModelIdSchema, hours: z.number().int().min(1).max(24).default(1) }).strict(),
    z.array(
      z.object({
        tag: z.string(),
        provider_name: z.string(),
        points: z.array(
          z.object({
            at: z.string(),
            attempts: z.number().int(),
            uptime: z.number().nullable(),
            ttft_p50: z.number().nullable(),
            throughput_p50: z.number().nullable(),
          }),
        ),
      }),
    ),
  ),
  'routing.plan': op(
    'query',
    'The order the router would try endpoints in, and why',
    z.object({ model: ModelIdSchema, preferences: ProviderPreferencesSchema.optional() }).strict(),
    RoutePlanViewSchema,
  ),
  'sets.list': op('query', 'Saved question sets', none, z.array(QuestionSetSummarySchema)),
  'sets.get': op(
    'query',
    'One question set',
    z.object({ id: z.string() }).strict(),
    z.object({ id: z.string(), name: z.string(), request: DecisionsRequestSchema, cascade: z.string().nullable() }),
  ),
  'sets.save': op(
    'mutation',
    'Create or update a question set (the request is validated; cascade names a saved cascade preset, which must exist)',
    z
      .object({
        id: z.string().optional(),
        name: z.string().trim().min(1, 'a set needs a name').max(200),
        request: DecisionsRequestSchema,
        cascade: z.string().min(1).max(200).nullable().optional(),
      })
      .strict(),
    QuestionSetSummarySchema,
  ),
  'sets.delete': op('mutation', 'Delete a question set (can be undone)', z.object({ id: z.string() }).strict(), z.object({ id: z.string() })),
  'sets.restore': op('mutation', 'Undo deleting a question set', z.object({ id: z.string() }).strict(), QuestionSetSummarySchema),
  'runs.start': op(
    'mutation',
    'Start answering a request; follow it with runs.get. cascade names a saved cascade preset: the request is then asked in stages, its model first',
    z
      .object({
        request: DecisionsRequestSchema,
        set_id: z.string().optional(),
        label: z.string().max(200).optional(),
        cascade: z.string().min(1).max(200).optional(),
      })
      .strict(),
    RunSchema,
  ),
  'runs.get': op('query', 'A run and its answers so far', z.object({ id: z.string() }).strict(), RunSchema),
  'runs.cancel': op('mutation', 'Stop a run', z.object({ id: z.string() }).strict(), RunSchema),
  'runs.delete': op('mutation', 'Delete a finished run from the history', z.object({ id: z.string() }).strict(), z.object({ id: z.string() })),
  'runs.list': op(
    'query',
    'Past runs from the inspector, newest first',
    z
      .object({
        set_id: z.string().optional(),
        model: z.string().optional(),
        status: RunStatusSchema.optional(),
        limit: z.number().int().min(1).max(500).default(100),
      })
      .strict(),
    z.array(RunSchema),
  ),
  'boxes.list': op(
    'query',
    'Images under box review; with images: false each data_url is empty (fetch one with boxes.image), so the list stays small however many images there are',
    z.object({ images: z.boolean().optional() }).strict(),
    z.array(BoxItemSchema),
  ),
  'boxes.image': op(
    'query',
    'The image of one item under box review',
    z.object({ id: z.string() }).strict(),
    z.object({ id: z.string(), data_url: z.string() }),
  ),
  'boxes.add': op('mutation', 'Add an image to review', z.object({ name: z.string().min(1).max(300), data_url: ImageDataUrlSchema }).strict(), BoxItemSchema),
  'boxes.update': op(
    'mutation',
    'Change ground truth, the model answer, the verdict or the note of one image',
    z
      .object({
        id: z.string(),
        truth: z.array(TruthBoxSchema).max(50).optional(),
        answer: FractionBoxSchema.nullable().optional(),
        answers: z.record(z.string(), FractionBoxSchema).optional(),
        model: z.string().nullable().optional(),
        run_id: z.string().nullable().optional(),
        verdict: z.enum(['accepted', 'rejected']).nullable().optional(),
        note: z.string().max(2000).optional(),
      })
      .strict(),
    BoxItemSchema,
  ),
  'boxes.remove': op('mutation', 'Remove an image from review', z.object({ id: z.string() }).strict(), z.object({ id: z.string() })),
  'backup.export': op('query', 'Everything but secrets, as one JSON document', none, BackupSchema),
  'backup.import': op(
    'mutation',
    'Restore a backup: settings and catalog replaced, question sets, datasets (with their box verdicts) and images added (validated first; nothing changes when it is invalid)',
    z.object({ backup: BackupSchema }).strict(),
    z.object({ question_sets: z.number().int(), box_items: z.number().int(), catalog_endpoints: z.number().int(), datasets: z.number().int() }),
  ),
  'catalog.discover': op(
    'mutation',
    'Ask every enabled provider for its model listing now',
    none,
    z.array(z.object({ provider: z.string(), models: z.number().int(), error: z.string().nullable(), at: z.string() })),
  ),
  'catalog.export': op('query', 'The user catalog file', none, CatalogFileSchema),
  'catalog.import': op(
    'mutation',
    'Replace the user catalog file (validated; nothing is saved when it is invalid)',
    z.object({ catalog: z.unknown() }).strict(),
    z.object({ providers: z.number().int(), models: z.number().int(), endpoints: z.number().int() }),
  ),
  ...EVAL_OPERATIONS,
  ...BOX_REVIEW_OPERATIONS,
} satisfies Record<OperationName, Operation>;

export type Operations = typeof OPERATIONS;
export type OperationInput<N extends OperationName> = z.input<Operations[N]['input']>;
export type OperationOutput<N extends OperationName> = z.output<Operations[N]['output']>;
export type ParsedOperationInput<N extends OperationName> = z.output<Operations[N]['input']>;
