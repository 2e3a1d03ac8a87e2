import { z } from 'zod';
import { conditionProblems } from '../../../shared/cascade/conditions';
import { CascadeConditionSchema, CascadeSchema, type CascadeCondition } from '../../../shared/schemas/cascade';
import type { Question } from '../../../shared/schemas/question';
import { GatewayError } from '../errors';
import type { OutboundOptions } from '../net/public-target';
import { checkWebhook } from '../reviews/webhook';
import { HUMAN_STAGE, type CascadeRecord, type StagePlan } from '../decisions/stages';

/** Zod's issues as "where: what", under the field the caller named. */
function problemsOf(error: z.ZodError, root: string): string {
  return error.issues
    .map((i) => `${[root, ...i.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))].join('').replace(/\.\[/g, '[')}: ${i.message}`)
    .join('; ');
}

function checkFits(when: z.infer<typeof CascadeConditionSchema>, questions: Readonly<Record<string, Question>>, path: string): void {
  const problems = conditionProblems(when, questions, path);
  if (problems.length > 0) throw new GatewayError('bad_request', problems.join('; '));
}

/** Whether a model can be asked here; a remote gateway knows its own models, so it is not asked. */
export type KnownModel = (id: string) => boolean;

/** Models the catalog knows, when this server answers itself. */
export const knownModel =
  (core: { service(): { mode: string }; catalog: { hasModel(id: string): boolean } }): KnownModel =>
  (id) =>
    core.service().mode === 'remote' || core.catalog.hasModel(id);

function checkModel(id: string, known: KnownModel | undefined, path: string): void {
  // `human`: a person answers (the review queue), not a model.
  if (id === HUMAN_STAGE) return;
  if (known && !known(id)) throw new GatewayError('bad_request', `${path}: no model "${id}" is known here (GET /api/v1/models lists them)`);
}

/**
 * The `cascade` extension of the spec's and System One's routes: `{ "model": "…", "when": condition }`
 * (docs/API.md), checked against the request's questions. A server without the extension refuses the
 * field (the spec's request is strict), so a caller never gets one model's answer thinking it had two.
 */
export async function stagesFromCascadeField(
  value: unknown,
  request: { model: string; questions: Readonly<Record<string, Question>> },
  presets: { presetByName(name: string): Promise<{ name: string; model: string; first_model: string | null; when: CascadeCondition } | null> },
  knownModel?: KnownModel,
  outbound: OutboundOptions = {},
): Promise<StagePlan> {
  const questions = request.questions;
  // A preset saved from an evaluation's curve, by its name.
  if (typeof value === 'string') {
    const preset = await presets.presetByName(value);
    if (!preset) throw new GatewayError('bad_request', `cascade: no cascade preset named "${value}"`);
    if (preset.first_model !== null && preset.first_model !== request.model)
      throw new GatewayError(
        'bad_request',
        `cascade: the preset "${value}" was chosen for ${preset.first_model} first, and this request asks ${request.model}; ask ${preset.first_model}, or save a preset for ${request.model}`,
      );
    checkFits(preset.when, questions, `cascade (preset "${value}").when`);
    checkModel(preset.model, knownModel, `cascade (preset "${value}").model`);
    return { then: preset.model, when: preset.when, fallbacks: [], preset: preset.name };
  }
  // A human stage may name where the person's answers are posted (not a model's: it answers at once).
  const { webhook, ...cascade } =
    typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : { webhook: undefined };
  const parsed = CascadeSchema.safeParse(webhook === undefined ? value : cascade);
  if (!parsed.success) throw new GatewayError('bad_request', problemsOf(parsed.error, 'cascade'));
  checkFits(parsed.data.when, questions, 'cascade.when');
  checkModel(parsed.data.model, knownModel, 'cascade.model');
  if (webhook !== undefined && parsed.data.model !== HUMAN_STAGE)
    throw new GatewayError('bad_request', 'cascade.webhook: only a human stage (model "human") posts its answers to a webhook');
  const hook = webhook === undefined ? undefined : checkWebhook(webhook, 'cascade.webhook', outbound);
  return { then: parsed.data.model, when: parsed.data.when, fallbacks: [], ...(hook ? { webhook: hook } : {}) };
}

const GatewayModelsSchema = z
  .array(z.union([z.string().min(1, 'a model id'), z.strictObject({ model: z.string().min(1, 'a model id'), when: CascadeConditionSchema })]))
  .min(1, 'at least 1 model')
  .refine(
    (entries) => entries.slice(1).every((e) => typeof e === 'string'),
    'only the first entry may be conditional ({model, when}); the others are model ids',
  );

/**
 * Vercel's decision fallbacks (`providerOptions.gateway.models`): one conditional `{model, when}`
 * entry first, then plain model ids tried when the model before fails. Questions are the request's,
 * in the spec's words (a named question must exist with a type its condition reads).
 */
export function stagesFromGatewayModels(value: unknown, questions: Readonly<Record<string, Question>>, knownModel?: KnownModel): StagePlan {
  const parsed = GatewayModelsSchema.safeParse(value);
  if (!parsed.success) throw new GatewayError('bad_request', problemsOf(parsed.error, 'providerOptions.gateway.models'));
  parsed.data.forEach((entry, i) => {
    const model = typeof entry === 'string' ? entry : entry.model;
    if (model === HUMAN_STAGE)
      throw new GatewayError(
        'bad_request',
        `providerOptions.gateway.models[${i}]: a person ("human") answers only through the cascade extension of the spec's and System One's routes (docs/API.md)`,
      );
    checkModel(model, knownModel, `providerOptions.gateway.models[${i}]`);
  });
  const [first, ...rest] = parsed.data;
  if (typeof first === 'string') return { then: null, when: null, fallbacks: [first, ...(rest as string[])] };
  checkFits(first!.when, questions, 'providerOptions.gateway.models[0].when');
  return { then: first!.model, when: first!.when, fallbacks: rest as string[] };
}

/**
 * A response with its cascade record, when it has one; escalated to a person, it says its answers are
 * provisional and names the review to read the person's answers from (`GET /api/v1/reviews/{id}`).
 */
export function withCascade<T extends object>(shaped: T, record: CascadeRecord | null): T | (T & { cascade: CascadeRecord }) {
  if (!record) return shaped;
  return { ...shaped, ...(record.human ? { provisional: true, review_id: record.review_id } : {}), cascade: record };
}

/** A request body's `cascade` field apart from the rest (bodies that are not objects are left to the schema's message). */
export function withoutCascade(json: unknown): { cascade: unknown; body: unknown } {
  if (typeof json !== 'object' || json === null || Array.isArray(json) || !('cascade' in json)) return { cascade: undefined, body: json };
  const { cascade, ...body } = json as Record<string, unknown>;
  return { cascade, body };
}
