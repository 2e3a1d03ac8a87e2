import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { logNormal, splitPrompt } from './baseline';
import { behaviourOf } from './behaviours';
import type { SandboxProfile } from './profiles';
import type { Locate } from './native-decisions';
import type { Foreground } from '../images/pool';
import { statedBox } from './image-baseline';
import { estimateTokens } from '../decisions/state';
import { cachedPrefixTokens, chatPromptTokens, dataUrlSize } from './counting';

/** Every simulated chat endpoint's context, as its catalog entry says and its server holds to. */
export const SANDBOX_CONTEXT_TOKENS = 32_768;
/** The instruction that asks a model to state each label's probability as JSON (decisions/ask.ts, statedRequest). */
const STATED = /Do not answer with a label\. Instead give, as JSON/;
export const sleep = (ms: number) => (ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve());
const CACHE_TTL_MS = 5 * 60_000;

type ChatMessage = { role: string; content: string | { type: string; text?: string }[] };

function firstImage(messages: ChatMessage[]): string | null {
  for (const m of messages) {
    if (typeof m.content === 'string') continue;
    for (const part of m.content as { type: string; image_url?: { url?: string } }[]) {
      if (part.type === 'image_url' && part.image_url?.url) return part.image_url.url;
    }
  }
  return null;
}

function imageUrls(m: ChatMessage): string[] {
  if (typeof m.content === 'string') return [];
  return (m.content as { type: string; image_url?: { url?: string } }[]).flatMap((p) => (p.type === 'image_url' && p.image_url?.url ? [p.image_url.url] : []));
}

function messageText(m: ChatMessage): string {
  return typeof m.content === 'string' ? m.content : m.content.map((p) => p.text ?? '').join('');
}

/** An error as an OpenAI-compatible provider sends it. */
export const openaiError = (
  res: ServerResponse,
  status: number,
  message: string,
  type: string,
  headers: Record<string, string> = {},
  extra: { param?: string; code?: string } = {},
) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ error: { message, type, param: extra.param ?? null, code: extra.code ?? null } }));
};

/**
 * A simulated provider's `/v1/chat/completions`: the OpenAI streaming format with logprobs and
 * cached-token usage, its scripted latency, throughput, failures and 429s, what real providers refuse
 * (unknown models, no messages, past the context) in their words, and the baseline's answers.
 */
export class SimulatedChat {
  private readonly promptCache = new Map<string, number>();

  constructor(private readonly deps: { random: () => number; timeScale: number; failures: boolean; locate: Locate }) {}

  /** Scripted misfortune: returns true when the request was answered with a failure. */
  misfortune(profile: SandboxProfile, res: ServerResponse): boolean {
    if (!this.deps.failures) return false;
    const roll = this.deps.random();
    if (roll < profile.rateLimitRate) {
      openaiError(res, 429, `Rate limit reached for ${profile.name}`, 'rate_limit_exceeded', { 'retry-after': String(profile.retryAfterSeconds) });
      return true;
    }
    if (roll < profile.rateLimitRate + profile.failureRate) {
      const which = this.deps.random();
      if (which < 0.4) openaiError(res, 500, 'The server had an error while processing your request', 'server_error');
      else if (which < 0.8) openaiError(res, 529, `${profile.name} is overloaded`, 'overloaded_error');
      else res.socket?.destroy();
      return true;
    }
    return false;
  }

  /** Cached per provider and model, as providers cache a prompt for the model and account that sent it. */
  private cachedTokens(prefix: string, where: string): number {
    const tokens = estimateTokens(prefix);
    if (cachedPrefixTokens(tokens) === 0) return 0;
    const key = createHash('sha256').update(where).update('\u0000').update(prefix).digest('hex');
    const now = Date.now();
    const seen = this.promptCache.get(key);
    this.promptCache.set(key, now);
    return seen !== undefined && now - seen < CACHE_TTL_MS ? cachedPrefixTokens(tokens) : 0;
  }

  async answer(profile: SandboxProfile, body: Record<string, unknown>, res: ServerResponse): Promise<void> {
    const messages = (body['messages'] as ChatMessage[] | undefined) ?? [];
    const model = String(body['model'] ?? '');
    if (!profile.models.includes(model)) return openaiError(res, 404, `The model \`${model}\` does not exist`, 'invalid_request_error');
    if (messages.length === 0) return openaiError(res, 400, "'messages' must contain at least one message", 'invalid_request_error');
    if (this.misfortune(profile, res)) return;
    // The system prompt is instructions, not content: the baseline reads only the user's turns.
    const userText = messages
      .filter((m) => m.role !== 'system')
      .map(messageText)
      .join('\n');
    const { state: prefix, question } = splitPrompt(userText);
    // Text at four characters a token, images by their size (see counting.ts).
    const promptTokens = chatPromptTokens(messages.map((m) => ({ characters: messageText(m).length, images: imageUrls(m).map(dataUrlSize) })));
    const maxTokens = Number(body['max_tokens'] ?? 16);
    // What a provider refuses before anything else: more than the model's context, in OpenAI's words.
    const context = SANDBOX_CONTEXT_TOKENS;
    if (promptTokens + maxTokens > context)
      return openaiError(
        res,
        400,
        `This model's maximum context length is ${context} tokens. However, you requested ${promptTokens + maxTokens} tokens (${promptTokens} in the messages, ${maxTokens} in the completion). Please reduce the length of the messages or completion.`,
        'invalid_request_error',
        {},
        { param: 'messages', code: 'context_length_exceeded' },
      );
    const cached = this.cachedTokens(prefix, `${profile.slug}/${model}`);
    const topN = body['logprobs'] === true ? Math.min(20, Number(body['top_logprobs'] ?? 0)) : 0;
    const behaviour = behaviourOf(model);
    const labelled = behaviour.read(prefix, question);
    const wantsBox = /"box_2d"|"bbox_2d"|"box": \{/.test(question);
    const image = wantsBox ? firstImage(messages) : null;
    const located = image && model === 'sandbox/baseline-vision' ? await this.deps.locate(image) : null;
    if (wantsBox && model !== 'sandbox/baseline-vision') {
      return openaiError(res, 400, `${model} does not accept images`, 'invalid_request_error');
    }

    await sleep(logNormal(this.deps.random, profile.latencyMedianMs * behaviour.latencyFactor, profile.latencySigma) * this.deps.timeScale);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const id = `chatcmpl-sbx-${Math.floor(this.deps.random() * 1e12).toString(36)}`;
    const send = (payload: unknown) => res.write(`data: ${JSON.stringify(payload)}\n\n`);
    const chunk = (content: string, logprobs: unknown = null) =>
      send({ id, object: 'chat.completion.chunk', model, choices: [{ index: 0, delta: { content }, logprobs, finish_reason: null }] });

    const completionTokens = await this.content(chunk, { wantsBox, located, question, labelled, topN, maxTokens, profile });
    send({ id, object: 'chat.completion.chunk', model, choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' }] });
    send({
      id,
      object: 'chat.completion.chunk',
      model,
      choices: [],
      usage: {
        prompt_tokens: promptTokens,
        completion_tokens: completionTokens,
        total_tokens: promptTokens + completionTokens,
        prompt_tokens_details: { cached_tokens: cached },
      },
    });
    res.end('data: [DONE]\n\n');
  }

  /** The reply's content, sent in chunks: a stated box, stated probabilities, a label with its logprobs, or plain text at the profile's pace. Its completion tokens. */
  private async content(
    chunk: (content: string, logprobs?: unknown) => void,
    ask: {
      wantsBox: boolean;
      located: Foreground | null;
      question: string;
      labelled: ReturnType<ReturnType<typeof behaviourOf>['read']>;
      topN: number;
      maxTokens: number;
      profile: SandboxProfile;
    },
  ): Promise<number> {
    const { wantsBox, located, question, labelled, topN, maxTokens, profile } = ask;
    if (wantsBox) {
      // The statistics found nothing: a real model would say so in words, not invent a box.
      const reply = located ? statedBox(located, question) : 'I cannot find it in the image.';
      chunk(reply);
      return Math.ceil(reply.length / 4);
    } else if (labelled && STATED.test(question)) {
      // Asked to state its probabilities (a list too long for one-token labels), it states them as asked.
      const reply = JSON.stringify({
        probabilities: Object.fromEntries(labelled.labels.map((label, i) => [label, Number(labelled.probabilities[i]!.toFixed(3))])),
      });
      chunk(reply);
      return Math.ceil(reply.length / 4);
    } else if (labelled) {
      const order = labelled.labels.map((label, i) => ({ label, p: labelled.probabilities[i]! })).sort((a, b) => b.p - a.p);
      // A little mass on a spelling variant and on a token that is no label, as real models show.
      const top = [
        ...order.map((o) => ({ token: o.label, logprob: Math.log(Math.max(1e-9, o.p * 0.97)) })),
        { token: ` ${order[0]!.label}`, logprob: Math.log(Math.max(1e-9, order[0]!.p * 0.02)) },
        { token: 'The', logprob: Math.log(0.01) },
      ].slice(0, Math.max(topN, 0));
      chunk(order[0]!.label, topN > 0 ? { content: [{ token: order[0]!.label, logprob: top[0]?.logprob ?? 0, bytes: null, top_logprobs: top }] } : null);
      return 1;
    } else {
      const count = Math.max(1, Math.min(maxTokens, 64));
      for (let i = 0; i < count; i += 1) {
        if (i > 0) await sleep((1000 / profile.tokensPerSecond) * this.deps.timeScale);
        chunk(i === 0 ? 'Simulated' : ' text');
      }
      return count;
    }
  }
}
