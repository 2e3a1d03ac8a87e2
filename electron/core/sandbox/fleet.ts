import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CatalogContribution, CatalogModel, CatalogProvider } from '../catalog/types';
import { logNormal, seededRandom, splitPrompt } from './baseline';
import { behaviourOf, scaledPrice } from './behaviours';
import { SANDBOX_MODELS, SANDBOX_PROFILES, type SandboxProfile } from './profiles';
import { gatewayDecide, openAiDecide, systemOneDecide, type HostReply, type Locate } from './native-decisions';
import type { WireFormat } from '../../../shared/schemas/inspector';
import { statedBox } from './image-baseline';
import { ImagePool } from '../images/pool';
import { checkImage } from '../images/limits';
import { isGatewayError } from '../errors';
import { estimateTokens } from '../decisions/state';
import { cachedPrefixTokens, chatPromptTokens, dataUrlSize } from './counting';
import type { EndpointFare } from '../cost/cost-model';

export interface SandboxFleet {
  url: string;
  profiles: readonly SandboxProfile[];
  catalog: CatalogContribution;
  /** A simulated provider's scripted figures as this fleet plays them (failures on or off, time scaled): what the cost model walks. */
  fare(slug: string): EndpointFare | null;
  close(): Promise<void>;
}

export interface FleetOptions {
  seed?: number;
  /** Multiplies every scripted delay: 0 answers at once (benchmarks), 1 is the profile's timing. */
  timeScale?: number;
  /** Replace the scripted failure rates (tests that need a quiet fleet). */
  failures?: boolean;
  profiles?: readonly SandboxProfile[];
  /** Where images are decoded (off the server's thread); by default a pool of the fleet's own. */
  images?: ImagePool;
}

/** An image a simulated provider refuses, as real ones refuse what is past their limits: a 400 with this message. */
class ImageRefused extends Error {}

/** Every simulated chat endpoint's context, as its catalog entry says and its server holds to. */
const SANDBOX_CONTEXT_TOKENS = 32_768;
/** The instruction that asks a model to state each label's probability as JSON (decisions/ask.ts, statedRequest). */
const STATED = /Do not answer with a label\. Instead give, as JSON/;
const sleep = (ms: number) => (ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve());
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

/**
 * Simulated providers as real loopback HTTP servers: `/{slug}/v1/chat/completions` speaks the
 * OpenAI-compatible streaming format (with logprobs and cached-token usage), `/{slug}/api/alpha/decisions`
 * the native Decisions format, and `/{slug}/v1/models` lists models for discovery. Each provider
 * follows its profile's latency, throughput, failures, 429s and prices.
 */
export async function startSandboxFleet(options: FleetOptions = {}): Promise<SandboxFleet> {
  const random = seededRandom(options.seed ?? Date.now());
  const timeScale = options.timeScale ?? 1;
  const profiles = options.profiles ?? SANDBOX_PROFILES;
  const bySlug = new Map(profiles.map((p) => [p.slug, p]));
  const promptCache = new Map<string, number>();
  const images = options.images ?? new ImagePool();
  /** The box the baseline finds in an image: its header checked first (a provider refuses what is past its limits), then decoded on the pool. */
  const locate: Locate = async (dataUrl) => {
    const match = /^data:(image\/(?:png|jpeg));base64,/.exec(dataUrl.slice(0, 40));
    if (!match) return null;
    const base64 = dataUrl.slice(match[0].length);
    try {
      checkImage(match[1]!, base64, 'image');
    } catch (error) {
      if (isGatewayError(error)) throw new ImageRefused(`Invalid image: ${error.message}`);
      throw error;
    }
    return images.foreground({ base64 });
  };

  const server: Server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (error instanceof ImageRefused && !res.headersSent) return openaiError(res, 400, error.message, 'invalid_request_error');
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'sandbox failure', type: 'server_error' } }));
    });
  });
  server.keepAliveTimeout = 30_000;

  async function readBody(req: IncomingMessage): Promise<unknown> {
    let text = '';
    for await (const chunk of req) text += chunk;
    return JSON.parse(text || '{}');
  }

  const openaiError = (
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

  /** Scripted misfortune: returns true when the request was answered with a failure. */
  function misfortune(profile: SandboxProfile, res: ServerResponse): boolean {
    if (options.failures === false) return false;
    const roll = random();
    if (roll < profile.rateLimitRate) {
      openaiError(res, 429, `Rate limit reached for ${profile.name}`, 'rate_limit_exceeded', { 'retry-after': String(profile.retryAfterSeconds) });
      return true;
    }
    if (roll < profile.rateLimitRate + profile.failureRate) {
      const which = random();
      if (which < 0.4) openaiError(res, 500, 'The server had an error while processing your request', 'server_error');
      else if (which < 0.8) openaiError(res, 529, `${profile.name} is overloaded`, 'overloaded_error');
      else res.socket?.destroy();
      return true;
    }
    return false;
  }

  /** Cached per provider and model, as providers cache a prompt for the model and account that sent it. */
  function cachedTokens(prefix: string, where: string): number {
    const tokens = estimateTokens(prefix);
    if (cachedPrefixTokens(tokens) === 0) return 0;
    const key = createHash('sha256').update(where).update('\u0000').update(prefix).digest('hex');
    const now = Date.now();
    const seen = promptCache.get(key);
    promptCache.set(key, now);
    return seen !== undefined && now - seen < CACHE_TTL_MS ? cachedPrefixTokens(tokens) : 0;
  }

  async function chat(profile: SandboxProfile, body: Record<string, unknown>, res: ServerResponse): Promise<void> {
    const messages = (body['messages'] as ChatMessage[] | undefined) ?? [];
    const model = String(body['model'] ?? '');
    if (!profile.models.includes(model)) return openaiError(res, 404, `The model \`${model}\` does not exist`, 'invalid_request_error');
    if (messages.length === 0) return openaiError(res, 400, "'messages' must contain at least one message", 'invalid_request_error');
    if (misfortune(profile, res)) return;
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
    const cached = cachedTokens(prefix, `${profile.slug}/${model}`);
    const topN = body['logprobs'] === true ? Math.min(20, Number(body['top_logprobs'] ?? 0)) : 0;
    const behaviour = behaviourOf(model);
    const labelled = behaviour.read(prefix, question);
    const wantsBox = /"box_2d"|"bbox_2d"|"box": \{/.test(question);
    const image = wantsBox ? firstImage(messages) : null;
    const located = image && model === 'sandbox/baseline-vision' ? await locate(image) : null;
    if (wantsBox && model !== 'sandbox/baseline-vision') {
      return openaiError(res, 400, `${model} does not accept images`, 'invalid_request_error');
    }

    await sleep(logNormal(random, profile.latencyMedianMs * behaviour.latencyFactor, profile.latencySigma) * timeScale);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const id = `chatcmpl-sbx-${Math.floor(random() * 1e12).toString(36)}`;
    const send = (payload: unknown) => res.write(`data: ${JSON.stringify(payload)}\n\n`);
    const chunk = (content: string, logprobs: unknown = null) =>
      send({ id, object: 'chat.completion.chunk', model, choices: [{ index: 0, delta: { content }, logprobs, finish_reason: null }] });

    let completionTokens = 0;
    if (wantsBox) {
      // The statistics found nothing: a real model would say so in words, not invent a box.
      const reply = located ? statedBox(located, question) : 'I cannot find it in the image.';
      chunk(reply);
      completionTokens = Math.ceil(reply.length / 4);
    } else if (labelled && STATED.test(question)) {
      // Asked to state its probabilities (a list too long for one-token labels), it states them as asked.
      const reply = JSON.stringify({
        probabilities: Object.fromEntries(labelled.labels.map((label, i) => [label, Number(labelled.probabilities[i]!.toFixed(3))])),
      });
      chunk(reply);
      completionTokens = Math.ceil(reply.length / 4);
    } else if (labelled) {
      const order = labelled.labels.map((label, i) => ({ label, p: labelled.probabilities[i]! })).sort((a, b) => b.p - a.p);
      // A little mass on a spelling variant and on a token that is no label, as real models show.
      const top = [
        ...order.map((o) => ({ token: o.label, logprob: Math.log(Math.max(1e-9, o.p * 0.97)) })),
        { token: ` ${order[0]!.label}`, logprob: Math.log(Math.max(1e-9, order[0]!.p * 0.02)) },
        { token: 'The', logprob: Math.log(0.01) },
      ].slice(0, Math.max(topN, 0));
      chunk(order[0]!.label, topN > 0 ? { content: [{ token: order[0]!.label, logprob: top[0]?.logprob ?? 0, bytes: null, top_logprobs: top }] } : null);
      completionTokens = 1;
    } else {
      const count = Math.max(1, Math.min(maxTokens, 64));
      for (let i = 0; i < count; i += 1) {
        if (i > 0) await sleep((1000 / profile.tokensPerSecond) * timeScale);
        chunk(i === 0 ? 'Simulated' : ' text');
        completionTokens += 1;
      }
    }
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

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://sandbox');
    const [, slug, ...rest] = url.pathname.split('/');
    const profile = bySlug.get(slug ?? '');
    const path = `/${rest.join('/')}`;
    if (!profile) return openaiError(res, 404, `No simulated provider at /${slug ?? ''}`, 'not_found');
    if (req.method === 'GET' && path === '/v1/models') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: profile.models.map((id) => ({ id, object: 'model', owned_by: profile.slug })) }));
      return;
    }
    if (req.method !== 'POST') return openaiError(res, 405, 'Method not allowed', 'invalid_request_error');
    let body: Record<string, unknown>;
    try {
      body = (await readBody(req)) as Record<string, unknown>;
    } catch {
      return openaiError(res, 400, 'We could not parse the JSON body of your request', 'invalid_request_error');
    }
    if (path === '/v1/chat/completions' && profile.wireFormat === 'openai') return chat(profile, body, res);
    const decide = DECISION_ROUTES[profile.wireFormat];
    if (decide && path === decide.path) {
      if (misfortune(profile, res)) return;
      await sleep(logNormal(random, profile.latencyMedianMs, profile.latencySigma) * timeScale);
      const answer = await decide.answer(body, profile, locate);
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer.body));
      return;
    }
    return openaiError(res, 404, `Unknown path ${path}`, 'not_found');
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    profiles,
    catalog: sandboxCatalog(url, profiles),
    fare: (slug) => {
      const p = bySlug.get(slug);
      if (!p) return null;
      const quiet = options.failures === false;
      return {
        faultRate: quiet ? 0 : p.failureRate,
        rateLimitRate: quiet ? 0 : p.rateLimitRate,
        retryAfterMs: p.retryAfterSeconds * 1000,
        latencyMs: p.latencyMedianMs * timeScale,
      };
    },
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      if (!options.images) await images.close();
    },
  };
}

/** Where each simulated decision host answers, and how. */
const DECISION_ROUTES: Partial<
  Record<WireFormat, { path: string; answer: (body: unknown, profile: SandboxProfile, locate: Locate) => HostReply | Promise<HostReply> }>
> = {
  decisions: { path: '/api/alpha/decisions', answer: gatewayDecide },
  systemone: { path: '/v1/systemone', answer: systemOneDecide },
  'openai-decisions': { path: '/v1/decisions', answer: openAiDecide },
};

/** The catalog entries of the fleet: every provider labelled simulated. */
export function sandboxCatalog(url: string, profiles: readonly SandboxProfile[]): CatalogContribution {
  const providers: CatalogProvider[] = profiles.map((p) => ({
    slug: p.slug,
    name: p.name,
    wire_format: p.wireFormat,
    // Another gateway is addressed as the spec addresses one (its /api/v1); the others at /v1.
    base_url: p.wireFormat === 'decisions' ? `${url}/${p.slug}/api/v1` : `${url}/${p.slug}/v1`,
    local: true,
    data_policy: { zdr: p.zdr, collects_data: p.collectsData },
    source: 'sandbox',
    simulated: true,
  }));
  const models: CatalogModel[] = SANDBOX_MODELS.map((m) => ({ ...m, source: 'sandbox' }));
  const endpoints = profiles.flatMap((p) =>
    p.models
      .map((modelId) => ({ modelId, factor: p.wireFormat === 'openai' ? behaviourOf(modelId).priceFactor : 1 }))
      .map(({ modelId, factor }) => ({
        model_id: modelId,
        provider: p.slug,
        upstream_model: modelId,
        context_length: SANDBOX_CONTEXT_TOKENS,
        max_completion_tokens: 4096,
        max_prompt_tokens: null,
        pricing: {
          prompt: scaledPrice(p.promptPrice, factor),
          completion: scaledPrice(p.completionPrice, factor),
          input_cache_read: scaledPrice(p.cacheReadPrice, factor),
        },
        quantization: p.quantization,
        supported_parameters: p.wireFormat === 'openai' ? ['max_tokens', 'temperature', 'logprobs', 'top_logprobs', 'response_format'] : [],
        supports_implicit_caching: true,
      })),
  );
  return { providers, models, endpoints };
}
