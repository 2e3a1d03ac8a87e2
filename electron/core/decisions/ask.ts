import type { Edges } from '../../../shared/geometry/iou';
import type { DecisionsRequest } from '../../../shared/schemas/decisions-request';
import type { BoxQuestion, Question } from '../../../shared/schemas/question';
import type { CatalogEndpoint } from '../catalog/types';
import type { CancelSignal } from '../cancel';
import type { Upstreams } from './upstreams';
import type { ChatRequest, ContentPart, NativeAnswer, Timings, UpstreamUsage } from '../providers/types';
import { UpstreamError } from '../providers/upstream-error';
import { guidanceText } from '../validation';
import { answerFrom, type LabelQuestion } from './answers';
import { boxConventionFor, boxInstruction, parseBox, seenSize } from './box/conventions';
import type { PreparedImage } from './prepare';
import { labelDistribution } from './extract';
import { questionText, SYSTEM_PROMPT, type LabelSet } from './labels';
import { countTokens } from './tokens';
import type { LedgerEntry } from './usage';
import { nativeAnswerProblem } from './native-check';
import type { Prepared } from './prepare';
import type { Rounding } from '../providers/decision-host';

/**
 * Asking one endpoint about one question, in the way that endpoint answers best, and the prompts
 * each way sends. The engine decides which endpoint; these decide how to ask it.
 */

/** native: passed through; logprobs: label token probabilities; verbalized: stated probabilities; box: a located box. */
export type AnsweringMethod = 'native' | 'logprobs' | 'verbalized' | 'box';

/**
 * One question's answer, or the host's refusal of it (native hosts of OpenAI's family refuse per
 * question), and the decimals its numbers were rounded to (null: the host declared none).
 */
export type Answered = { name: string; answer: NativeAnswer; method: AnsweringMethod; provider: string; rounding: Rounding | null };

/** Decimals of the answers measured here (answers.ts and extract.ts round to them). */
export const MEASURED_ROUNDING: Rounding = { probabilityDecimals: 6, scoreDecimals: 6 };
export type AnsweredCall = Answered & { timings: Timings; usage: UpstreamUsage };

/** Mass on valid labels below which the measurement failed (DECISIONS.md). */
export const MIN_COVERAGE = 0.5;
const TOP_LOGPROBS = 20;
export const BOX_SYSTEM_PROMPT = 'You locate objects in images. Reply with the JSON the question asks for and nothing else.';
export const BOX_MAX_TOKENS = 120;

/**
 * How an endpoint answers: passed through (a native Decisions provider), from label
 * log-probabilities where the model gives them and every label is one token, else stated.
 */
export function methodFor(endpoint: CatalogEndpoint, upstreams: Pick<Upstreams, 'adapter' | 'capabilities'>, labels?: LabelSet): AnsweringMethod {
  if (upstreams.adapter(endpoint).decide) return 'native';
  if (labels && !labels.singleToken) return 'verbalized';
  return upstreams.capabilities(endpoint).topLogprobs > 0 ? 'logprobs' : 'verbalized';
}

/** What one question needs to be asked: its name, the shared state and what the plan forwards. */
export interface Asking {
  name: string;
  question: Question;
  labels: LabelSet | undefined;
  image: PreparedImage | null;
  parts: ContentPart[];
  options: Record<string, unknown> | undefined;
}

/** One question on one endpoint: label log-probabilities (measured again once if thin), else stated probabilities; or a box. */
export async function ask(
  upstreams: Upstreams,
  endpoint: CatalogEndpoint,
  q: Asking,
  signal: CancelSignal,
  ledger: LedgerEntry[],
  onFirstToken?: () => void,
): Promise<AnsweredCall> {
  const hooks = { onFirstToken, onBilled: (usage: UpstreamUsage) => ledger.push({ endpoint, usage, estimated: false }) };
  if (q.question.type === 'box') return askBox(upstreams, endpoint, { ...q, question: q.question }, signal, ledger, hooks);
  const question: LabelQuestion = q.question;
  const labels = q.labels!;
  const content: ContentPart[] = [...markCacheable(q.parts), { type: 'text', text: questionPart(question, labels) }];
  const base: ChatRequest = {
    system: SYSTEM_PROMPT,
    messages: [{ role: 'user', content }],
    maxTokens: 1,
    temperature: 0,
    minimalReasoning: true,
    options: q.options,
  };
  const provider = endpoint.provider.name;
  // Checked before each call: an endpoint that refuses log-probabilities goes straight to stated ones.
  for (let attempt = 0; attempt < 2 && methodFor(endpoint, upstreams, labels) === 'logprobs'; attempt += 1) {
    const result = await upstreams.callForLogprobs(endpoint, { ...base, topLogprobs: TOP_LOGPROBS }, signal, hooks);
    if (!result) break;
    await recordUsage(ledger, endpoint, result.usage, content, result.text);
    const distribution = labelDistribution(result.tokens, labels);
    if (distribution && distribution.coverage >= MIN_COVERAGE) {
      return {
        name: q.name,
        answer: answerFrom(question, distribution.probabilities),
        method: 'logprobs',
        provider,
        rounding: MEASURED_ROUNDING,
        timings: result.timings,
        usage: result.usage,
      };
    }
  }
  const stated = statedRequest(labels);
  const asked: ChatRequest = {
    ...base,
    maxTokens: stated.maxTokens,
    messages: [{ role: 'user', content: [...content, { type: 'text', text: stated.text }] }],
    jsonSchema: { name: 'label_probabilities', schema: stated.schema },
  };
  const result = await upstreams.call(endpoint, asked, signal, hooks);
  await recordUsage(ledger, endpoint, result.usage, content, result.text);
  const probabilities = statedProbabilities(result.text, labels);
  if (!probabilities) throw new UpstreamError('invalid_response', `no usable probabilities for "${q.name}" in the model's reply`);
  return {
    name: q.name,
    answer: answerFrom(question, probabilities),
    method: 'verbalized',
    provider,
    rounding: MEASURED_ROUNDING,
    timings: result.timings,
    usage: result.usage,
  };
}

/** A box question: the model states a box in its family's convention; it is converted to fractions. */
async function askBox(
  upstreams: Upstreams,
  endpoint: CatalogEndpoint,
  q: Asking & { question: BoxQuestion },
  signal: CancelSignal,
  ledger: LedgerEntry[],
  hooks: Parameters<Upstreams['call']>[3],
): Promise<AnsweredCall> {
  const image = q.image!;
  const convention = endpoint.model.box_format ?? boxConventionFor(endpoint.model.id);
  const seen = seenSize(convention, image.width, image.height);
  // Only the image the box refers to: a box is a place in one image, and another would leave the model to guess which.
  const parts = q.parts.filter((p) => p.type !== 'image' || p.base64 === image.base64);
  const content: ContentPart[] = [...markCacheable(parts), { type: 'text', text: boxPrompt(endpoint, q.question, image) }];
  const request: ChatRequest = {
    system: BOX_SYSTEM_PROMPT,
    messages: [{ role: 'user', content }],
    maxTokens: BOX_MAX_TOKENS,
    temperature: 0,
    minimalReasoning: true,
    options: q.options,
  };
  const result = await upstreams.call(endpoint, request, signal, hooks);
  await recordUsage(ledger, endpoint, result.usage, content, result.text);
  const parsed = parseBox(result.text, convention, seen);
  const box = parsed && roundBox(parsed);
  // A box narrower than the rounding is no box: it locates nothing.
  if (!box || !(box.top < box.bottom && box.left < box.right))
    throw new UpstreamError('invalid_response', `no usable box for "${q.name}" in the model's reply`);
  // No confidence: coordinate token probabilities do not measure how well the box fits.
  return {
    name: q.name,
    answer: { type: 'box', box },
    method: 'box',
    provider: endpoint.provider.name,
    rounding: MEASURED_ROUNDING,
    timings: result.timings,
    usage: result.usage,
  };
}

/**
 * A host that answers Decisions itself answers the whole request; its answers pass through. Only
 * the content and questions travel (routing preferences, session and user stay here). What it
 * answered is checked against its own rules (every question once, distributions that sum within
 * its rounding, the choice a most likely option, the score their mean, box edges in order): an
 * answer that breaks them is an invalid response, and the request goes to the next endpoint. The
 * call was billed either way.
 */
export async function askNative(
  upstreams: Upstreams,
  endpoint: CatalogEndpoint,
  request: Pick<DecisionsRequest, 'state' | 'questions'>,
  prepared: Pick<Prepared, 'parts' | 'assets'>,
  signal: CancelSignal,
  ledger: LedgerEntry[],
) {
  const assets = prepared.assets.map((a) => ({ key: a.key, image: a.part }));
  const result = await upstreams.decide(endpoint, { state: request.state, parts: prepared.parts, questions: request.questions, assets }, signal);
  ledger.push({ endpoint, usage: result.usage, estimated: false });
  const problem = nativeAnswerProblem(request.questions, result.answers, endpoint.host?.rounding ?? null);
  if (problem) throw new UpstreamError('invalid_response', `the answers break the host's own rules: ${problem}`);
  const value: (Answered & { timings: Timings })[] = Object.keys(request.questions).map((name) => ({
    name,
    answer: result.answers[name]!,
    method: 'native',
    provider: endpoint.provider.name,
    rounding: endpoint.host?.rounding ?? null,
    timings: result.timings,
  }));
  return { value, usage: result.usage, timings: result.timings };
}

/** The question part of a label prompt, after the shared state. */
export const questionPart = (question: LabelQuestion, labels: LabelSet): string => `\n\n${questionText(question, labels)}`;

/** The question part of a box prompt, in the convention of the endpoint's model family. */
export function boxPrompt(endpoint: CatalogEndpoint, question: BoxQuestion, image: PreparedImage): string {
  const convention = endpoint.model.box_format ?? boxConventionFor(endpoint.model.id);
  return `\n\nQuestion: locate ${guidanceText(question.instructions)} in the image.\n${boxInstruction(convention, seenSize(convention, image.width, image.height))}`;
}

/** The follow-up that asks for stated probabilities (structured output) when log-probabilities fail. */
export function statedRequest(labels: LabelSet) {
  const schema = {
    type: 'object',
    properties: {
      probabilities: {
        type: 'object',
        properties: Object.fromEntries(labels.labels.map((l) => [l, { type: 'number' }])),
        required: labels.labels,
        additionalProperties: false,
      },
    },
    required: ['probabilities'],
    additionalProperties: false,
  };
  const text = `\n\nDo not answer with a label. Instead give, as JSON {"probabilities": {label: probability}}, your probability for each label (${labels.labels.join(', ')}), summing to 1.`;
  return { schema, text, maxTokens: statedMaxTokens(labels.labels.length) };
}

/** The most output tokens the stated-probability request asks for, for so many labels. */
export const statedMaxTokens = (labelCount: number) => 40 + 12 * labelCount;

const roundBox = (b: Edges) => ({
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
