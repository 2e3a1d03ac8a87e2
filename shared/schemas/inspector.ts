import { z } from 'zod';
import { BackupDatasetSchema } from './backup-datasets';

/**
 * Shapes of the inspector's own operations (not part of the public gateway API).
 * Secrets only ever travel inward: nothing here carries a stored provider key back out.
 */

export const ProviderSlugSchema = z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'expected a provider slug: lower-case letters, digits and dashes');

/**
 * How a provider is spoken to: three chat APIs (answers measured here by a method), and three
 * Decisions APIs whose hosts answer typed questions themselves: another gateway's
 * `/api/alpha/decisions` (`decisions`), System One (`systemone`: `state` + named questions) and
 * OpenAI Decisions (`openai-decisions`: `input` + ordered questions).
 */
export const WireFormatSchema = z.enum(['openai', 'anthropic', 'gemini', 'decisions', 'systemone', 'openai-decisions']);
export type WireFormat = z.infer<typeof WireFormatSchema>;

export const ProviderSummarySchema = z.object({
  slug: ProviderSlugSchema,
  name: z.string(),
  wire_format: WireFormatSchema,
  base_url: z.string(),
  local: z.boolean(),
  needs_key: z.boolean(),
  key_set: z.boolean(),
  key_updated_at: z.string().nullable(),
  /** The address the stored key was entered for: it is sent nowhere else (null when no key is set). */
  key_origin: z.string().nullable(),
  /** The last reading of the provider's own model listing, if it was asked. */
  discovery: z.object({ models: z.number().int(), error: z.string().nullable(), at: z.string() }).nullable(),
});
export type ProviderSummary = z.infer<typeof ProviderSummarySchema>;

export const ProviderKeyInputSchema = z.object({
  provider: ProviderSlugSchema,
  key: z
    .string()
    .trim()
    .min(8, 'a provider key is at least 8 characters')
    .max(4096, 'a provider key is at most 4096 characters')
    .regex(/^[\x21-\x7e]+$/, 'a provider key has no spaces or non-ASCII characters'),
});
export const ProviderKeyStateSchema = z.object({
  provider: ProviderSlugSchema,
  key_set: z.boolean(),
  key_updated_at: z.string().nullable(),
  key_origin: z.string().nullable(),
});

export const ApiKeyKindSchema = z.enum(['standard', 'management']);
export type ApiKeyKind = z.infer<typeof ApiKeyKindSchema>;

export const ApiKeyInfoSchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: ApiKeyKindSchema,
  /** The first characters of the key, enough to recognise it; never the secret part. */
  label: z.string(),
  created_at: z.string(),
  revoked_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
  /** USD this key may spend in all; null: no limit. */
  credit_limit: z.number().nullable(),
  /** USD spent so far: the sum of the cost of its answered requests. */
  spent: z.number(),
  /** Requests per minute; null: no limit. */
  rate_limit_rpm: z.number().int().nullable(),
});
export type ApiKeyInfo = z.infer<typeof ApiKeyInfoSchema>;

export const ApiKeyCreateInputSchema = z.object({
  name: z.string().trim().min(1, 'a key needs a name').max(100, 'a key name is at most 100 characters'),
  kind: ApiKeyKindSchema.default('standard'),
  credit_limit: z.number().positive('a credit limit is more than 0 USD').nullable().default(null),
  rate_limit_rpm: z.number().int().positive('a rate limit is at least 1 request per minute').nullable().default(null),
});
export type ApiKeyLimits = { credit_limit: number | null; rate_limit_rpm: number | null };
/** A key's limits as changed after its creation: both are given, null for no limit. */
export const ApiKeyLimitsInputSchema = z.object({
  credit_limit: z.number().positive('a credit limit is more than 0 USD').nullable(),
  rate_limit_rpm: z.number().int().positive('a rate limit is at least 1 request per minute').nullable(),
});
/** The only time a gateway key's secret is shown: right after it is created. */
export const ApiKeyCreatedSchema = z.object({ info: ApiKeyInfoSchema, key: z.string() });

export const ThemeSchema = z.enum(['system', 'light', 'dark']);
/** auto: the simulated providers are on while no real provider is configured. */
export const SandboxModeSchema = z.enum(['auto', 'on', 'off']);
/** Account-wide routing rules, merged with each request's provider preferences. */
export const AccountRoutingSchema = z.strictObject({
  only: z.array(z.string().min(1)).default([]),
  ignore: z.array(z.string().min(1)).default([]),
  zdr: z.boolean().default(false),
});
/** Built-in: this app routes to providers. Remote: another gateway serving the same API does. */
export const GatewayModeSchema = z.discriminatedUnion('mode', [
  z.strictObject({ mode: z.literal('built-in') }),
  z.strictObject({
    mode: z.literal('remote'),
    base_url: z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' }).regex(/\/api\/v1\/?$/, 'the base URL ends in /api/v1'),
  }),
]);
export type GatewayMode = z.infer<typeof GatewayModeSchema>;

/**
 * What a provider's address needs of the user's account (Cloudflare Workers AI: the account id in its
 * URL). Not a secret; kept with the settings, and put into the address only where it has a place for it.
 */
export const ProviderAccountSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, 'an account id is 1 to 64 letters, digits, dashes or underscores');

export const SettingsSchema = z.object({
  theme: ThemeSchema,
  sandbox: SandboxModeSchema,
  routing: AccountRoutingSchema,
  gateway: GatewayModeSchema,
  /** OTLP/HTTP collector base URLs (spans go to {url}/v1/traces). */
  trace_destinations: z.array(z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' })).max(8),
  /**
   * An image named by an https URL in a request (OpenAI's `input_image`): refused (the default: the
   * caller embeds it as a data URL), or fetched here, public addresses only, at most 10 MB.
   */
  image_urls: z.enum(['refuse', 'fetch']).default('refuse'),
  /** Account ids by provider, for addresses that name the account (`{account_id}` in a bundled base URL). */
  provider_accounts: z.record(ProviderSlugSchema, ProviderAccountSchema).default({}),
  /** Review: the model's answer is shown only once the reviewer has given theirs (true: no anchoring), or beside the item from the start. */
  review_blind: z.boolean().default(true),
  /** Review: the share of items a second reviewer answers too, without seeing the first's answers (agreement per question, Cohen's kappa); 0: none. */
  review_double_share: z.number().min(0, 'a share from 0').max(1, 'a share up to 1').default(0),
});
export type Settings = z.infer<typeof SettingsSchema>;
export const SettingsPatchSchema = SettingsSchema.partial().strict();

export const AppInfoSchema = z.object({
  name: z.literal('Verdict'),
  version: z.string(),
  host: z.enum(['desktop', 'browser']),
  data_dir: z.string(),
  secret_storage: z.object({
    available: z.boolean(),
    description: z.string(),
  }),
  /** Whether the simulated providers are part of the catalog right now. */
  sandbox_active: z.boolean(),
  /** Where the three operations are answered: here, or by a remote gateway. */
  gateway: z.object({ mode: z.enum(['built-in', 'remote']), base_url: z.string().nullable(), key_set: z.boolean(), key_origin: z.string().nullable() }),
  /** A problem with the user's catalog file, which was then left untouched. */
  catalog_problem: z.string().nullable(),
});
export type AppInfo = z.infer<typeof AppInfoSchema>;

export const ModelSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  endpoint_count: z.number().int().nonnegative(),
  /**
   * How its answers are measured: `native` (a decision model: its hosts answer Decisions
   * themselves and the numbers pass through), `method` (a chat model asked by a method here:
   * token log-probabilities or stated probabilities), or `both` (endpoints of each kind).
   */
  answering: z.enum(['native', 'method', 'both']),
  /** Endpoints that can be called now: a key is set, or they need none (local, simulated). */
  callable_endpoints: z.number().int().nonnegative(),
  /** Whether it answers box questions (locates objects in images). */
  locates_objects: z.boolean(),
});
export type ModelSummary = z.infer<typeof ModelSummarySchema>;

export const PlannedAttemptViewSchema = z.object({
  provider: z.string(),
  provider_name: z.string(),
  tag: z.string(),
  simulated: z.boolean(),
  reason: z.string(),
});
export const RoutePlanViewSchema = z.object({
  strategy: z.enum(['order', 'sort', 'load-balance']),
  attempts: z.array(PlannedAttemptViewSchema),
  excluded: z.array(PlannedAttemptViewSchema),
});
export type RoutePlanView = z.infer<typeof RoutePlanViewSchema>;

/** Per-endpoint facts the UI shows beside the spec's record. */
export const EndpointDetailSchema = z.object({
  tag: z.string(),
  provider_slug: z.string(),
  simulated: z.boolean(),
  zdr: z.boolean().nullable(),
  collects_data: z.boolean().nullable(),
  /** null where no source gave the price. */
  prompt_price: z.number().nullable(),
  completion_price: z.number().nullable(),
  context_length: z.number().int().nullable(),
  /** attempts behind each uptime window */
  attempts_5m: z.number().int(),
  attempts_30m: z.number().int(),
  attempts_1d: z.number().int(),
  /** When its oldest kept figure was measured (at most a day ago): windows longer than that are partial. */
  measured_since: z.string().nullable(),
  /** How requests to it are built, and the document that says so. */
  capabilities: z.object({
    method: z.enum(['native', 'logprobs', 'verbalized']),
    token_limit: z.string(),
    temperature: z.boolean(),
    top_logprobs: z.number().int(),
    structured_output: z.string(),
    reasoning: z.string(),
    source: z.string(),
  }),
  /** For a host that answers Decisions natively: its wire, what it takes and how it rounds, per the document its row names. */
  host: z
    .object({
      wire: WireFormatSchema,
      path: z.string(),
      question_types: z.array(z.string()),
      images: z.string(),
      limits: z.object({
        questions: z.number().int().nullable(),
        options: z.tuple([z.number().int(), z.number().int().nullable()]),
        levels: z.tuple([z.number().int(), z.number().int().nullable()]),
        images: z.number().int().nullable(),
        context_tokens: z.number().int().nullable(),
      }),
      rounding_decimals: z.number().int().nullable(),
      output_billed: z.boolean(),
      gaps: z.string().nullable(),
      source: z.string(),
    })
    .nullable(),
  /** Where each value came from: 'catalog file', 'provider listing', models.dev with its version…; null: unknown. */
  sources: z.object({
    pricing: z.string().nullable(),
    context_length: z.string().nullable(),
    max_completion_tokens: z.string().nullable(),
    modalities: z.string().nullable(),
  }),
  /** Parameters or features it refused at run time; later requests leave them out. */
  refused: z.array(z.object({ parameter: z.string(), message: z.string(), learned_at: z.string() })),
});
export type EndpointDetail = z.infer<typeof EndpointDetailSchema>;

/** A saved question set: a name and the DecisionsRequest it sends. */
export const QuestionSetSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  model: z.string(),
  question_count: z.number().int(),
  updated_at: z.string(),
  /** the sample offered on first start */
  sample: z.boolean(),
});
export type QuestionSetSummary = z.infer<typeof QuestionSetSummarySchema>;

export const RunStatusSchema = z.enum(['running', 'done', 'failed', 'cancelled']);

/** One run of a question set (or of any request) from the inspector. */
/** How a run was routed: the preferences it used, the endpoints tried in order and why, and those left out. */
export const RunRoutingSchema = z.object({
  preferences: z.unknown(),
  strategy: z.enum(['order', 'sort', 'load-balance']).nullable(),
  attempts: z.array(
    z.object({
      provider_name: z.string(),
      tag: z.string(),
      outcome: z.string(),
      message: z.string().nullable(),
      ms: z.number().nullable(),
      reason: z.string().nullable(),
    }),
  ),
  excluded: z.array(z.object({ provider_name: z.string(), tag: z.string(), reason: z.string() })),
});
export type RunRouting = z.infer<typeof RunRoutingSchema>;

export const RunSchema = z.object({
  id: z.string(),
  set_id: z.string().nullable(),
  label: z.string().nullable(),
  status: RunStatusSchema,
  model: z.string(),
  started_at: z.string(),
  latency_ms: z.number().nullable(),
  /** Question names answered so far (progress). */
  answered: z.array(z.string()),
  question_count: z.number().int(),
  request: z.unknown(),
  response: z.unknown().nullable(),
  methods: z.record(z.string(), z.string()).nullable(),
  error: z.object({ code: z.number().int(), message: z.string() }).nullable(),
  /** null for runs from before routing was recorded, and for runs answered by a remote gateway. */
  routing: RunRoutingSchema.nullable(),
});
export type Run = z.infer<typeof RunSchema>;

/** A box in fractions of the image (origin top-left). */
export const FractionBoxSchema = z
  .object({ top: z.number().min(0).max(1), left: z.number().min(0).max(1), bottom: z.number().min(0).max(1), right: z.number().min(0).max(1) })
  .refine((b) => b.top < b.bottom && b.left < b.right, 'a box needs top < bottom and left < right');

/** A ground-truth box; its label is the name of the box question it answers (none on older items). */
export const TruthBoxSchema = z
  .object({
    top: z.number().min(0).max(1),
    left: z.number().min(0).max(1),
    bottom: z.number().min(0).max(1),
    right: z.number().min(0).max(1),
    label: z.string().min(1).max(100).optional(),
  })
  .refine((b) => b.top < b.bottom && b.left < b.right, 'a box needs top < bottom and left < right');
export type TruthBox = z.infer<typeof TruthBoxSchema>;

/** An image under review: ground-truth boxes drawn by people, the model's boxes, and the verdict. */
export const BoxItemSchema = z.object({
  id: z.string(),
  name: z.string(),
  data_url: z.string(),
  truth: z.array(TruthBoxSchema),
  /** The model's box for the question "box" (items from before box questions were named), or the first answer. */
  answer: FractionBoxSchema.nullable(),
  /** The model's box by box question name, from the latest run. */
  answers: z.record(z.string(), FractionBoxSchema).default({}),
  model: z.string().nullable(),
  run_id: z.string().nullable(),
  verdict: z.enum(['accepted', 'rejected']).nullable(),
  /** True when the item was run again after the verdict: the verdict was given on other answers. */
  stale: z.boolean().default(false),
  /**
   * Why the verdict is stale: the item was run again for this model since (the new answer has the
   * same boxes, or other ones), the truth was edited since, or the answers shown are not those judged.
   */
  stale_reason: z.enum(['rerun_unchanged', 'rerun_changed', 'truth_changed', 'answers_differ']).nullable().default(null),
  /** The model whose answer the verdict judged; null with a verdict when that is not known (given before verdicts were per model). */
  verdict_model: z.string().nullable().default(null),
  note: z.string(),
  /**
   * The verdict on each box question's answer, by question: given on that answer, or on the whole
   * image (`whole_image`), with its note and whether it is stale (see `stale_reason`).
   */
  verdicts: z
    .record(
      z.string(),
      z.object({
        verdict: z.enum(['accepted', 'rejected']),
        note: z.string(),
        whole_image: z.boolean(),
        stale: z.boolean(),
        stale_reason: z.enum(['rerun_unchanged', 'rerun_changed', 'truth_changed', 'answers_differ']).nullable(),
      }),
    )
    .default({}),
  /** Verdicts replaced or cleared on this item for this model, newest first, each with the note written for it ('' question: the whole image). */
  history: z
    .array(z.object({ question: z.string(), verdict: z.enum(['accepted', 'rejected']), note: z.string(), given_at: z.string(), ended_at: z.string() }))
    .default([]),
  /** The image's size in pixels, when it could be read. */
  width: z.number().int().positive().nullable().default(null),
  height: z.number().int().positive().nullable().default(null),
  created_at: z.string(),
});
export type BoxItem = z.infer<typeof BoxItemSchema>;
export const ImageDataUrlSchema = z
  .string()
  .regex(/^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/]+={0,2}$/, 'expected a base64 PNG, JPEG, GIF or WebP data: URL');

/** Everything but secrets: settings, the catalog file, question sets, datasets (with their box verdicts) and box reviews. */
export const BackupSchema = z.strictObject({
  verdict_backup: z.literal(1),
  exported_at: z.string(),
  settings: SettingsSchema,
  catalog: z.unknown(),
  question_sets: z.array(z.strictObject({ name: z.string().min(1), request: z.unknown() })),
  box_items: z.array(BoxItemSchema.omit({ id: true, created_at: true })),
  /** Absent from backups made before datasets were kept in them. */
  datasets: z.array(BackupDatasetSchema).default([]),
});
export type Backup = z.infer<typeof BackupSchema>;
