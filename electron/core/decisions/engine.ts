import { randomUUID } from 'node:crypto';
import type { Answer } from '../../../shared/schemas/answer';
import type { DecisionsRequest } from '../../../shared/schemas/decisions-request';
import type { DecisionsResponse } from '../../../shared/schemas/decisions-response';
import type { CatalogEndpoint } from '../catalog/types';
import { GatewayError } from '../errors';
import type { Gateway } from '../gateway';
import type { CallContext, ChatRequest, ChatResult, ContentPart, Target, Timings, UpstreamUsage } from '../providers/types';
import type { BoxQuestion, Question } from '../../../shared/schemas/question';
import { prepareImage, type PreparedImage } from './box/image';
import { boxConventionFor, boxInstruction, parseBox, seenSize } from './box/conventions';
import { UpstreamError } from '../providers/upstream-error';
import type { AttemptSummary } from '../routing/executor';
import type { Plan } from '../routing/plan';
import { answerFrom, type LabelQuestion } from './answers';
import { labelDistribution } from './extract';
import { labelSet, questionText, SYSTEM_PROMPT, type LabelSet } from './labels';
import { estimateTokensOfLength, stateParts } from './state';
import { countTokens } from './tokens';
import { guidanceText } from '../validation';
import { attachUsage, maxCallCost, totalUsage, type LedgerEntry } from './usage';
import type { CancelSignal } from '../cancel';

/** native: passed through; logprobs: label token probabilities; verbalized: stated probabilities; box: a located box. */
export type AnsweringMethod = 'native' | 'logprobs' | 'verbalized' | 'box';

export interface DecisionOutcome {
  response: DecisionsResponse;
  methods: Record<string, AnsweringMethod>;
  endpoint: CatalogEndpoint;
  attempts: AttemptSummary[];
  ledger: LedgerEntry[];
}

/** Mass on valid labels below which the measurement failed (DECISIONS.md). */
export const MIN_COVERAGE = 0.5;
const TOP_LOGPROBS = 20;

type Answered = { name: string; answer: Answer; method: AnsweringMethod; provider: string };

/**
 * How an endpoint answers: passed through (a native Decisions provider), from label
 * log-probabilities where the model gives them and every label is one token, else stated.
 */
export function methodFor(endpoint: CatalogEndpoint, gateway: Gateway, labels?: LabelSet): AnsweringMethod {
  const adapter = gateway.adapter(endpoint);
  if (adapter.decide) return 'native';
  if (labels && !labels.singleToken) return 'verbalized';
  return gateway.capabilities(endpoint).topLogprobs > 0 ? 'logprobs' : 'verbalized';
}

/**
 * Answers a Decisions request: one routed call for the first question (warming the provider's
 * prompt cache), then the rest in parallel on the same endpoint, each falling back along the
 * plan. Answers come from the model's own label probabilities, its stated probabilities, or a
 * native Decisions endpoint; never a number made up here.
 */
export class DecisionsEngine {
  constructor(
    private readonly gateway: Gateway,
    private readonly timeouts?: { deadlineMs: number; attemptMs: number },
  ) {}

  private routeOptions(requestId: string, signal: CancelSignal | undefined) {
    return {
      requestId,
      ...(signal ? { signal } : {}),
      ...(this.timeouts ? { deadlineMs: this.timeouts.deadlineMs, attemptTimeoutMs: this.timeouts.attemptMs } : {}),
    };
  }

  /**
   * Answers the request. `admit` is called once the plan is known and before any upstream call,
   * with a function that gives the most the request can cost (USD, worked out only if asked); it
   * may refuse by throwing. An error raised after
   * paid upstream calls carries their usage (see `usageOf`), so the caller can charge it.
   */
  async decide(
    request: DecisionsRequest,
    options: { requestId: string; signal?: CancelSignal; onAnswer?: (name: string) => void; admit?: (maxCost: () => number) => void },
  ): Promise<DecisionOutcome> {
    const ledger: LedgerEntry[] = [];
    try {
      return await this.decideWith(request, options, ledger);
    } catch (error) {
      if (ledger.length > 0) attachUsage(error, totalUsage(ledger));
      throw error;
    }
  }

  private async decideWith(
    request: DecisionsRequest,
    options: { requestId: string; signal?: CancelSignal; onAnswer?: (name: string) => void; admit?: (maxCost: () => number) => void },
    ledger: LedgerEntry[],
  ): Promise<DecisionOutcome> {
    const model = this.gateway.model(request.model);
    const state = stateParts(request.state);
    const { images } = state;
    let parts = state.parts;
    const entries = Object.entries(request.questions);
    let image: PreparedImage | null = null;
    for (const [name, q] of entries) {
      if (q.type !== 'box') continue;
      if (!model.locates_objects) throw new GatewayError('bad_request', `questions.${name}: ${model.id} cannot locate objects in images, so it cannot answer a box question`);
      if (images === 0) throw new GatewayError('bad_request', `questions.${name}: a box question needs an image in state (an image_url part with a data: URL)`);
    }
    if (entries.some(([, q]) => q.type === 'box')) {
      // Boxes refer to the first image, upright: EXIF orientation is applied before anyone sees it.
      const index = parts.findIndex((p) => p.type === 'image');
      const first = parts[index] as Extract<ContentPart, { type: 'image' }>;
      image = prepareImage(first.mediaType, first.base64, `state (image ${index + 1})`);
      parts = parts.map((p, i) => (i === index ? { type: 'image', mediaType: image!.mediaType, base64: image!.base64 } : p));
    }
    const labelled = entries as [string, Question][];
    const sets = new Map(labelled.flatMap(([name, q]) => (q.type === 'box' ? [] : [[name, labelSet(name, q)] as const])));
    const promptChars = parts.reduce((n, p) => n + (p.type === 'text' ? p.text.length : 0), 0);
    const plan = this.gateway.plan(request.model, request.provider ?? undefined, {
      // The gateway sets every model parameter itself, and only those each endpoint accepts.
      parameters: [],
      calls: labelled.length,
      promptTokens: estimateTokensOfLength(promptChars) + 60,
      completionTokens: 1,
      images,
    });
    options.admit?.(() => this.maxCost(plan, request, labelled, sets, parts, images, image));
    const answers: Answered[] = [];

    const [firstName, firstQuestion] = labelled[0]!;
    // The rest start once the first call has produced its first token: by then the provider has
    // processed (and cached) the shared prefix, so they overlap the first call's tail.
    let warmed!: (endpoint: CatalogEndpoint) => void;
    const warm = new Promise<CatalogEndpoint>((resolve) => (warmed = resolve));
    const firstRun = this.gateway.route(
      plan,
      async (attempt, signal) => {
        const target = await this.gateway.target(attempt.endpoint);
        this.gateway.assertKey(attempt.endpoint, target);
        const method = methodFor(attempt.endpoint, this.gateway);
        if (method === 'native') return this.native(attempt.endpoint, target, request, signal, ledger);
        const one = await this.ask(
          attempt.endpoint,
          target,
          { name: firstName, question: firstQuestion, labels: sets.get(firstName), image, parts, options: attempt.options },
          signal,
          ledger,
          () => warmed(attempt.endpoint),
        );
        return { value: [one], usage: one.usage, timings: one.timings };
      },
      this.routeOptions(options.requestId, options.signal),
    );
    const early =
      labelled.length > 1 ? await Promise.race([warm.then((endpoint) => ({ warm: endpoint })), firstRun.then((result) => ({ done: result }))]) : { done: await firstRun };
    const restNeeded = labelled.length > 1 && !('done' in early && methodFor(early.done.endpoint, this.gateway) === 'native');
    const pinTo = 'warm' in early ? early.warm : (early as { done: { endpoint: CatalogEndpoint } }).done.endpoint;
    const restRuns = restNeeded
      ? labelled.slice(1).map(([name, question]) => {
          const pinned: Plan = { ...plan, attempts: [...plan.attempts].sort((a, b) => Number(b.endpoint.id === pinTo.id) - Number(a.endpoint.id === pinTo.id)) };
          return this.gateway
            .route(
              pinned,
              async (attempt, signal) => {
                const target = await this.gateway.target(attempt.endpoint);
                this.gateway.assertKey(attempt.endpoint, target);
                if (methodFor(attempt.endpoint, this.gateway) === 'native') {
                  const native = await this.native(attempt.endpoint, target, { ...request, questions: { [name]: question } }, signal, ledger);
                  return { ...native, value: native.value.filter((a) => a.name === name) };
                }
                const one = await this.ask(attempt.endpoint, target, { name, question, labels: sets.get(name), image, parts, options: attempt.options }, signal, ledger);
                return { value: [one], usage: one.usage, timings: one.timings };
              },
              this.routeOptions(options.requestId, options.signal),
            )
            .then((r) => {
              for (const a of r.value) options.onAnswer?.(a.name);
              return r;
            });
        })
      : [];
    // Every call is awaited before an error is raised, so none is left running unobserved.
    const [firstSettled, ...restSettled] = await Promise.allSettled([firstRun, ...restRuns]);
    if (firstSettled!.status === 'rejected') throw firstSettled!.reason;
    const first = firstSettled!.value;
    answers.push(...first.value.map(({ name, answer, method, provider }) => ({ name, answer, method, provider })));
    for (const a of first.value) options.onAnswer?.(a.name);
    const attempts = [...first.attempts];
    {
      const rest = restSettled.map((r) => {
        if (r.status === 'rejected') throw r.reason;
        return r.value;
      });
      for (const r of rest) {
        answers.push(...r.value);
        attempts.push(...r.attempts);
      }
    }

    const byName = new Map(answers.map((a) => [a.name, a]));
    const ordered = entries.map(([name]) => {
      const found = byName.get(name);
      if (!found) throw new GatewayError('bad_gateway', `questions.${name}: the provider returned no answer for this question`);
      return found;
    });
    return {
      response: {
        id: `gen-${randomUUID()}`,
        model: request.model,
        // Each provider that answered a question, in question order (usually one).
        provider: [...new Set(ordered.map((a) => a.provider))].join(', '),
        answers: Object.fromEntries(ordered.map((a) => [a.name, a.answer])),
        usage: totalUsage(ledger),
      },
      methods: Object.fromEntries(ordered.map((a) => [a.name, a.method])),
      endpoint: first.endpoint,
      attempts,
      ledger,
    };
  }

  /**
   * The most this request can cost on its plan: every question may try every planned endpoint, each
   * with all the calls its method may make (two log-probability calls and the stated-probability
   * call), prompts counted at one token per UTF-8 byte (a token is never shorter than a byte) plus
   * IMAGE_TOKENS per image, replies at the longest we ask for. Endpoints with an unknown price count 0.
   */
  private maxCost(
    plan: Plan,
    request: DecisionsRequest,
    labelled: [string, Question][],
    sets: ReadonlyMap<string, LabelSet>,
    parts: ContentPart[],
    images: number,
    image: PreparedImage | null,
  ): number {
    const stateTokens = parts.reduce((n, p) => n + (p.type === 'text' ? Buffer.byteLength(p.text) : 0), 0) + images * IMAGE_TOKENS + CALL_OVERHEAD_TOKENS;
    // What each label question's calls send, counted once: only box prompts depend on the endpoint.
    const asks = labelled.map(([name, question]) => {
      if (question.type === 'box') return { question, labels: undefined, asked: 0, stated: 0, statedOut: 0 };
      const labels = sets.get(name)!;
      const asked = stateTokens + Buffer.byteLength(SYSTEM_PROMPT) + Buffer.byteLength(questionPart(question, labels));
      const stated = statedRequest(labels);
      return { question, labels, asked, stated: asked + Buffer.byteLength(stated.text) + Buffer.byteLength(JSON.stringify(stated.schema)), statedOut: stated.maxTokens };
    });
    let native: { promptTokens: number; outputTokens: number } | undefined;
    let total = 0;
    for (const { endpoint } of plan.attempts) {
      // Output includes the room left for thinking. A call `chat` makes again after a refusal costs
      // no more: the refused one was not billed.
      const room = this.gateway.capabilities(endpoint).thinkingRoom;
      const cost = (promptTokens: number, outputTokens: number) => maxCallCost(endpoint, { promptTokens, outputTokens: outputTokens + room }) ?? 0;
      for (const ask of asks) {
        const method = methodFor(endpoint, this.gateway, ask.labels);
        if (method === 'native') {
          native ??= { promptTokens: stateTokens + Buffer.byteLength(JSON.stringify(request.questions)), outputTokens: NATIVE_OUTPUT_TOKENS * labelled.length };
          total += maxCallCost(endpoint, native) ?? 0;
        } else if (ask.question.type === 'box') {
          total += cost(stateTokens + Buffer.byteLength(BOX_SYSTEM_PROMPT + boxPrompt(endpoint, ask.question, image!)), BOX_MAX_TOKENS);
        } else {
          if (method === 'logprobs') total += 2 * cost(ask.asked, 1);
          total += cost(ask.stated, ask.statedOut);
        }
      }
    }
    return total;
  }

  /** A native Decisions provider answers the whole request; its answers pass through. */
  private async native(endpoint: CatalogEndpoint, target: Target, request: DecisionsRequest, signal: CancelSignal, ledger: LedgerEntry[]) {
    // Only the content and questions travel; routing preferences, session and user stay here.
    const forwarded: DecisionsRequest = { model: request.model, state: request.state, questions: request.questions };
    const result = await this.gateway.adapter(endpoint).decide!(target, forwarded, this.gateway.context(signal));
    ledger.push({ endpoint, usage: result.usage, estimated: false });
    const value: (Answered & { timings: typeof result.timings })[] = [];
    for (const [name, question] of Object.entries(request.questions)) {
      const answer = result.response.answers[name];
      if (!answer || answer.type !== question.type) {
        throw new UpstreamError('invalid_response', `the answer to "${name}" is missing or not of type ${question.type}`);
      }
      value.push({ name, answer, method: 'native', provider: endpoint.provider.name, timings: result.timings });
    }
    return { value, usage: result.usage, timings: result.timings };
  }

  /** One question on one endpoint: label log-probabilities, one retry, then stated probabilities; or a box. */
  private async ask(
    endpoint: CatalogEndpoint,
    target: Target,
    q: { name: string; question: Question; labels: LabelSet | undefined; image: PreparedImage | null; parts: ContentPart[]; options: Record<string, unknown> | undefined },
    signal: CancelSignal,
    ledger: LedgerEntry[],
    onFirstToken?: () => void,
  ): Promise<Answered & { timings: Timings; usage: UpstreamUsage }> {
    const ctx = { ...this.gateway.context(signal), onFirstToken };
    if (q.question.type === 'box') return this.askBox(endpoint, target, { ...q, question: q.question }, ctx, ledger);
    const question: LabelQuestion = q.question;
    const labels = q.labels!;
    const content: ContentPart[] = [...markCacheable(q.parts), { type: 'text', text: questionPart(question, labels) }];
    const base: ChatRequest = { system: SYSTEM_PROMPT, messages: [{ role: 'user', content }], maxTokens: 1, temperature: 0, minimalReasoning: true, options: q.options };
    const record = (usage: UpstreamUsage, text: string) => recordUsage(ledger, endpoint, usage, content, text);
    const provider = endpoint.provider.name;
    // Checked before each call: an endpoint that refuses log-probabilities goes straight to stated ones.
    for (let attempt = 0; attempt < 2 && methodFor(endpoint, this.gateway, labels) === 'logprobs'; attempt += 1) {
      const result = await this.chat(endpoint, target, { ...base, topLogprobs: TOP_LOGPROBS }, ctx, ledger);
      if (!result) break;
      await record(result.usage, result.text);
      const distribution = labelDistribution(result.tokens, labels);
      if (distribution && distribution.coverage >= MIN_COVERAGE) {
        return { name: q.name, answer: answerFrom(question, distribution.probabilities), method: 'logprobs' as const, provider, timings: result.timings, usage: result.usage };
      }
    }
    const stated = statedRequest(labels);
    // Null only for calls that ask for log-probabilities; this one does not.
    const result = (await this.chat(
      endpoint,
      target,
      { ...base, maxTokens: stated.maxTokens, messages: [{ role: 'user', content: [...content, { type: 'text', text: stated.text }] }], jsonSchema: { name: 'label_probabilities', schema: stated.schema } },
      ctx,
      ledger,
    ))!;
    await record(result.usage, result.text);
    const probabilities = statedProbabilities(result.text, labels);
    if (!probabilities) throw new UpstreamError('invalid_response', `no usable probabilities for "${q.name}" in the model's reply`);
    return { name: q.name, answer: answerFrom(question, probabilities), method: 'verbalized' as const, provider, timings: result.timings, usage: result.usage };
  }

  /**
   * One chat call that learns instead of failing: when the endpoint says a parameter or feature
   * is unsupported, that is remembered for the endpoint and the call is made again without it
   * (refused calls are not billed). When nothing is left to change the error stands, and the
   * executor moves to the next endpoint. Null when the call asked for log-probabilities and the
   * endpoint refused them: the question is then asked for stated probabilities instead.
   */
  private async chat(endpoint: CatalogEndpoint, target: Target, request: ChatRequest, ctx: CallContext, ledger: LedgerEntry[]): Promise<ChatResult | null> {
    const adapter = this.gateway.adapter(endpoint);
    for (let refusals = 0; ; refusals += 1) {
      try {
        return await adapter.chat!(target, request, ctx);
      } catch (error) {
        if (!(error instanceof UpstreamError)) throw error;
        // A model that declined, or ran out of budget, was still paid for what it produced.
        if (error.details.usage) ledger.push({ endpoint, usage: error.details.usage, estimated: false });
        // Out of budget before any answer: remembered, so the next request leaves more room; this one
        // moves on (its tokens were billed, and the reservation held one such call).
        if (error.kind === 'incomplete') this.gateway.learn(endpoint, OUTPUT_BUDGET, error.message);
        const learned = error.kind === 'unsupported' ? error.details.parameter : undefined;
        if (!learned || refusals >= MAX_REFUSALS) throw error;
        const before = JSON.stringify(target.capabilities);
        this.gateway.learn(endpoint, learned, error.message);
        target.capabilities = this.gateway.capabilities(endpoint);
        if (JSON.stringify(target.capabilities) === before) throw error;
        if (request.topLogprobs && target.capabilities.topLogprobs === 0) return null;
      }
    }
  }

  /** A box question: the model states a box in its family's convention; it is converted to fractions. */
  private async askBox(
    endpoint: CatalogEndpoint,
    target: Target,
    q: { name: string; question: BoxQuestion; image: PreparedImage | null; parts: ContentPart[]; options: Record<string, unknown> | undefined },
    ctx: CallContext,
    ledger: LedgerEntry[],
  ): Promise<Answered & { timings: Timings; usage: UpstreamUsage }> {
    const image = q.image!;
    const convention = endpoint.model.box_format ?? boxConventionFor(endpoint.model.id);
    const seen = seenSize(convention, image.width, image.height);
    const content: ContentPart[] = [...markCacheable(q.parts), { type: 'text', text: boxPrompt(endpoint, q.question, image) }];
    // Null only for calls that ask for log-probabilities; this one does not.
    const result = (await this.chat(
      endpoint,
      target,
      { system: BOX_SYSTEM_PROMPT, messages: [{ role: 'user', content }], maxTokens: BOX_MAX_TOKENS, temperature: 0, minimalReasoning: true, options: q.options },
      ctx,
      ledger,
    ))!;
    await recordUsage(ledger, endpoint, result.usage, content, result.text);
    const box = parseBox(result.text, convention, seen);
    if (!box) throw new UpstreamError('invalid_response', `no usable box for "${q.name}" in the model's reply`);
    // No confidence: coordinate token probabilities do not measure how well the box fits.
    return { name: q.name, answer: { type: 'box', box: roundBox(box) }, method: 'box', provider: endpoint.provider.name, timings: result.timings, usage: result.usage };
  }
}

const BOX_SYSTEM_PROMPT = 'You locate objects in images. Reply with the JSON the question asks for and nothing else.';
const BOX_MAX_TOKENS = 120;
/** Bounds for the reservation at admission (see maxCost): tokens an image may count as, message framing, a native answer per question. */
export const IMAGE_TOKENS = 2_000;
const CALL_OVERHEAD_TOKENS = 32;
const NATIVE_OUTPUT_TOKENS = 64;

/** The question part of a label prompt, after the shared state. */
const questionPart = (question: LabelQuestion, labels: LabelSet): string => `\n\n${questionText(question, labels)}`;

/** The question part of a box prompt, in the convention of the endpoint's model family. */
function boxPrompt(endpoint: CatalogEndpoint, question: BoxQuestion, image: PreparedImage): string {
  const convention = endpoint.model.box_format ?? boxConventionFor(endpoint.model.id);
  return `\n\nQuestion: locate ${guidanceText(question.instructions)} in the image.\n${boxInstruction(convention, seenSize(convention, image.width, image.height))}`;
}

/** The follow-up that asks for stated probabilities (structured output) when log-probabilities fail. */
function statedRequest(labels: LabelSet) {
  const schema = {
    type: 'object',
    properties: { probabilities: { type: 'object', properties: Object.fromEntries(labels.labels.map((l) => [l, { type: 'number' }])), required: labels.labels, additionalProperties: false } },
    required: ['probabilities'],
    additionalProperties: false,
  };
  const text = `\n\nDo not answer with a label. Instead give, as JSON {"probabilities": {label: probability}}, your probability for each label (${labels.labels.join(', ')}), summing to 1.`;
  return { schema, text, maxTokens: 40 + 12 * labels.labels.length };
}
const roundBox = (b: { top: number; bottom: number; left: number; right: number }) => ({
  top: Number(b.top.toFixed(6)),
  bottom: Number(b.bottom.toFixed(6)),
  left: Number(b.left.toFixed(6)),
  right: Number(b.right.toFixed(6)),
});

/** Adds one call's usage to the ledger; counts the provider did not report are counted here with a tokenizer, never 0. */
async function recordUsage(ledger: LedgerEntry[], endpoint: CatalogEndpoint, usage: UpstreamUsage, content: ContentPart[], reply: string): Promise<void> {
  const estimated = usage.inputTokens === null || usage.outputTokens === null;
  if (!estimated) {
    ledger.push({ endpoint, estimated, usage });
    return;
  }
  const promptText = SYSTEM_PROMPT + content.map((p) => (p.type === 'text' ? p.text : '')).join('');
  const inputTokens = usage.inputTokens ?? (await countTokens(promptText));
  const outputTokens = usage.outputTokens ?? (await countTokens(reply));
  ledger.push({ endpoint, estimated, usage: { ...usage, inputTokens, outputTokens } });
}


/** Parameters one call may find refused, one after another, before it gives up on the endpoint. */
const MAX_REFUSALS = 4;
/** What `chat` learns when a reply ran out of output budget before any answer. */
const OUTPUT_BUDGET = 'output_budget';


/** The last text part of the state closes the shared prefix: providers that need a marker cache up to it. */
function markCacheable(parts: ContentPart[]): ContentPart[] {
  const lastText = parts.map((p) => p.type).lastIndexOf('text');
  return parts.map((p, i) => (i === lastText && p.type === 'text' ? { ...p, cache: true } : p));
}

/** Reads `{"probabilities": {...}}` from a reply, normalised over the labels; null when unusable. */
export function statedProbabilities(text: string, labels: LabelSet): Record<string, number> | null {
  const json = /\{[\s\S]*\}/.exec(text)?.[0];
  if (!json) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return null;
  }
  const table = (parsed as { probabilities?: Record<string, unknown> }).probabilities;
  if (!table || typeof table !== 'object') return null;
  const values = labels.labels.map((l) => {
    const v = table[l] ?? table[l.toLowerCase()];
    return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null;
  });
  if (values.some((v) => v === null)) return null;
  const total = (values as number[]).reduce((a, b) => a + b, 0);
  if (total <= 0) return null;
  return Object.fromEntries(labels.keys.map((k, i) => [k, values[i]! / total]));
}
