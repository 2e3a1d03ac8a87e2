import type { DecisionsRequest } from '../../../shared/schemas/decisions-request';
import type { Upstreams } from './upstreams';
import type { Plan } from '../routing/plan';
import { BOX_MAX_TOKENS, BOX_SYSTEM_PROMPT, boxPrompt, methodFor, questionPart, statedMaxTokens, statedRequest } from './ask';
import { SYSTEM_PROMPT, type LabelSet } from './labels';
import type { Prepared } from './prepare';
import { maxCallCost } from './usage';

/** Bounds for the reservation at admission: tokens an image may count as, message framing, a native answer per question. */
export const IMAGE_TOKENS = 2_000;
const CALL_OVERHEAD_TOKENS = 32;
/** Output tokens held per question on a native host that bills output (none so far does). */
const NATIVE_OUTPUT_TOKENS = 64;
const SYSTEM_PROMPT_BYTES = Buffer.byteLength(SYSTEM_PROMPT);

/**
 * What the stated-probability request adds to a prompt for a set of labels, in bytes (its text and
 * its JSON schema), by labels: the same few label sets come with request after request. Bounded: a
 * caller sending ever new labels empties it now and then.
 */
const statedBytes = new Map<string, number>();
function statedExtraBytes(set: LabelSet): number {
  const key = set.labels.join('\u0000');
  let bytes = statedBytes.get(key);
  if (bytes === undefined) {
    const stated = statedRequest(set);
    bytes = Buffer.byteLength(stated.text) + Buffer.byteLength(JSON.stringify(stated.schema));
    if (statedBytes.size >= 1_000) statedBytes.clear();
    statedBytes.set(key, bytes);
  }
  return bytes;
}

/**
 * The most a request can cost on its plan, reserved against a key's credit before any upstream
 * call: every question may try every planned endpoint, each with all the calls its method may make
 * (two log-probability calls and the stated-probability call), prompts counted at one token per
 * UTF-8 byte (a token is never shorter than a byte) plus IMAGE_TOKENS per image, replies at the
 * longest we ask for plus the room left for thinking. A call made again after a refusal costs no
 * more (the refused one was not billed). Endpoints with an unknown price count 0.
 */
export function maxCost(upstreams: Pick<Upstreams, 'adapter' | 'capabilities'>, plan: Plan, request: DecisionsRequest, prepared: Prepared): number {
  return reservation(upstreams, plan, request, prepared).usd;
}

/** `maxCost`, and whether a call it counted was on an endpoint whose price is unknown (counted 0, so the sum is then no bound). */
export function reservation(
  upstreams: Pick<Upstreams, 'adapter' | 'capabilities'>,
  plan: Plan,
  request: DecisionsRequest,
  prepared: Prepared,
): { usd: number; unpriced: boolean } {
  const { labelled, sets, parts, images, boxImages } = prepared;
  const stateTokens = parts.reduce((n, p) => n + (p.type === 'text' ? Buffer.byteLength(p.text) : 0), 0) + images * IMAGE_TOKENS + CALL_OVERHEAD_TOKENS;
  // What each label question's calls send, counted once: only box prompts depend on the endpoint.
  const asks = labelled.map(([name, question]) => {
    if (question.type === 'box') return { name, question, labels: undefined, asked: 0, stated: 0, statedOut: 0 };
    const labels = sets.get(name)!;
    const asked = stateTokens + SYSTEM_PROMPT_BYTES + Buffer.byteLength(questionPart(question, labels));
    return { name, question, labels, asked, stated: asked + statedExtraBytes(labels), statedOut: statedMaxTokens(labels.labels.length) };
  });
  // A host that answers natively takes the whole request in one call per attempt; only when chat
  // endpoints share the plan may the questions after the first reach it one by one.
  const allNative = plan.attempts.every(({ endpoint }) => methodFor(endpoint, upstreams) === 'native');
  // Only a native host is sent the questions as they came.
  let nativeBytes: number | undefined;
  const nativePrompt = () => (nativeBytes ??= stateTokens + Buffer.byteLength(JSON.stringify(request.questions)));
  let total = 0;
  let unpriced = false;
  const priced = (usd: number | null) => {
    if (usd === null) unpriced = true;
    return usd ?? 0;
  };
  for (const { endpoint } of plan.attempts) {
    const room = upstreams.capabilities(endpoint).thinkingRoom;
    const cost = (promptTokens: number, outputTokens: number) => priced(maxCallCost(endpoint, { promptTokens, outputTokens: outputTokens + room }));
    // No output is held where the host bills none (every decision host so far).
    const nativeOutput = endpoint.host?.outputBilled === false ? 0 : NATIVE_OUTPUT_TOKENS * labelled.length;
    if (allNative) {
      total += priced(maxCallCost(endpoint, { promptTokens: nativePrompt(), outputTokens: nativeOutput }));
      continue;
    }
    for (const ask of asks) {
      const method = methodFor(endpoint, upstreams, ask.labels);
      if (method === 'native') {
        total += priced(maxCallCost(endpoint, { promptTokens: nativePrompt(), outputTokens: nativeOutput }));
      } else if (ask.question.type === 'box') {
        total += cost(stateTokens + Buffer.byteLength(BOX_SYSTEM_PROMPT + boxPrompt(endpoint, ask.question, boxImages.get(ask.name)!)), BOX_MAX_TOKENS);
      } else {
        if (method === 'logprobs') total += 2 * cost(ask.asked, 1);
        total += cost(ask.stated, ask.statedOut);
      }
    }
  }
  return { usd: total, unpriced };
}
