/**
 * What one request costs on one endpoint: its calls as the engine would build them (one per question
 * on a chat model, asking for label log-probabilities or stated ones, the box prompt for boxes; one
 * call for all questions on a host that answers natively), counted as the endpoint counts tokens,
 * priced by cost/price.ts. Which endpoints answer, and how often, is the cost model's (cost-model.ts).
 */
import type { DecisionsRequest } from '../../../shared/schemas/decisions-request';
import type { Question } from '../../../shared/schemas/question';
import type { CatalogEndpoint } from '../catalog/types';
import { imageTokens } from '../catalog/image-tokens';
import { BOX_SYSTEM_PROMPT, boxPrompt, methodFor, questionPart, statedRequest } from '../decisions/ask';
import { SYSTEM_PROMPT } from '../decisions/labels';
import type { Prepared } from '../decisions/prepare';
import { estimateTokensOfLength } from '../decisions/state';
import { countTokens } from '../decisions/tokens';
import type { Upstreams } from '../decisions/upstreams';
import { priceCall } from './price';
import { cachedPrefixTokens, chatPromptTokens, dataUrlSize, nativePromptTokens } from '../sandbox/counting';

/** OpenAI's documented framing of a chat request ("How to count tokens with tiktoken"): 3 per message, 3 to start the reply. */
export const CHAT_FRAME_TOKENS = 3 * 2 + 3;

export interface ExpectedCost {
  /** USD; null when a price on the way is unknown */
  usd: number | null;
  input: number;
  output: number;
}

interface Call {
  system: string;
  /** the user message's text: the state's text parts, then the question */
  user: string;
  /** characters of the user message before its question: the prefix later calls share */
  prefix: number;
  images: { width: number; height: number }[];
  /** the reply's text as the endpoint would give it, for its tokens */
  reply: string;
}

const stateText = (prepared: Prepared) => prepared.parts.map((p) => (p.type === 'text' ? p.text : '')).join('');

export type Size = { width: number; height: number };

/** The size of each image part (its header read), for what it counts as. */
export function imageSizes(prepared: Prepared): Size[] {
  return prepared.parts.flatMap((p) => {
    if (p.type !== 'image') return [];
    const size = dataUrlSize(`data:${p.mediaType};base64,${p.base64.slice(0, 65_536)}`);
    return size ? [size] : [];
  });
}

/** The calls a chat endpoint gets for the request, as ask.ts builds them (a box call sends only the image it is about). */
function chatCalls(upstreams: Upstreams, endpoint: CatalogEndpoint, prepared: Prepared, images: Size[]): Call[] {
  const state = stateText(prepared);
  return prepared.labelled.map(([name, question]) => {
    if (question.type === 'box') {
      const image = prepared.boxImages.get(name)!;
      // The reply in the model's convention: four coordinates of three digits, as boxes are stated.
      return {
        system: BOX_SYSTEM_PROMPT,
        user: state + boxPrompt(endpoint, question, image),
        prefix: state.length,
        images: [{ width: image.width, height: image.height }],
        reply: JSON.stringify({ box_2d: [250, 250, 750, 750] }),
      };
    }
    const labels = prepared.sets.get(name)!;
    const asked = state + questionPart(question as Exclude<Question, { type: 'box' }>, labels);
    if (methodFor(endpoint, upstreams, labels) === 'logprobs')
      return { system: SYSTEM_PROMPT, user: asked, prefix: state.length, images, reply: labels.labels[0]! };
    const stated = statedRequest(labels);
    const reply = JSON.stringify({ probabilities: Object.fromEntries(labels.labels.map((l) => [l, 0.25])) });
    return { system: SYSTEM_PROMPT, user: asked + stated.text, prefix: state.length, images, reply };
  });
}

/**
 * Tokens of one call, counted as the endpoint counts them: the simulated providers by their own
 * rule (sandbox/counting.ts), others with a BPE tokenizer (o200k_base) and OpenAI's image rule.
 * Calls after the first share the state with it, so from the second on the prefix is read from the
 * provider's cache where the endpoint caches prompts.
 */
async function callTokens(endpoint: CatalogEndpoint, call: Call, cachedPrefix: boolean): Promise<{ input: number; cached: number; output: number }> {
  if (endpoint.provider.simulated) {
    const input = chatPromptTokens([
      { characters: call.system.length, images: [] },
      { characters: call.user.length, images: call.images },
    ]);
    return { input, cached: cachedPrefix ? cachedPrefixTokens(estimateTokensOfLength(call.prefix)) : 0, output: estimateTokensOfLength(call.reply.length) };
  }
  const images = call.images.reduce((n, i) => n + imageTokens(i.width, i.height), 0);
  const input = (await countTokens(call.system)) + (await countTokens(call.user)) + images + CHAT_FRAME_TOKENS;
  const prefix = await countTokens(call.user.slice(0, call.prefix));
  return { input, cached: cachedPrefix && endpoint.supportsImplicitCaching ? cachedPrefixTokens(prefix + images) : 0, output: await countTokens(call.reply) };
}

/** One endpoint's cost for the request; null when a price it needs is unknown. */
export async function endpointCost(
  upstreams: Upstreams,
  endpoint: CatalogEndpoint,
  request: DecisionsRequest,
  prepared: Prepared,
  images: Size[],
): Promise<ExpectedCost> {
  const p = endpoint.prices;
  if (methodFor(endpoint, upstreams) === 'native') {
    const questions = prepared.labelled.length;
    const state = stateText(prepared);
    const input = endpoint.provider.simulated
      ? nativePromptTokens(state.length, questions)
      : (await countTokens(state)) + (await countTokens(JSON.stringify(request.questions)));
    // No decision host bills output; one that does is counted a token per question.
    const output = endpoint.host?.outputBilled === false ? 0 : questions;
    return { usd: priceCall(p, { input, output, images: images.length }), input, output };
  }
  let input = 0;
  let output = 0;
  let usd: number | null = 0;
  const calls = chatCalls(upstreams, endpoint, prepared, images);
  for (const [i, call] of calls.entries()) {
    const t = await callTokens(endpoint, call, i > 0);
    input += t.input;
    output += t.output;
    const one = p.completion === null ? null : priceCall(p, { input: t.input, cached: t.cached, output: t.output, images: call.images.length });
    usd = usd === null || one === null ? null : usd + one;
  }
  return { usd, input, output };
}
