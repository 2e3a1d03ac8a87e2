import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CatalogContribution, CatalogModel, CatalogProvider } from '../catalog/types';
import { logNormal } from './baseline';
import { seededRandom } from '../../../shared/metrics/resample';
import { behaviourOf, scaledPrice } from './behaviours';
import { SANDBOX_MODELS, SANDBOX_PROFILES, type SandboxProfile } from './profiles';
import { gatewayDecide, openAiDecide, systemOneDecide, type HostReply, type Locate } from './native-decisions';
import type { WireFormat } from '../../../shared/schemas/inspector';
import { ImagePool } from '../images/pool';
import { checkImage } from '../images/limits';
import { isGatewayError } from '../errors';
import { openaiError, SANDBOX_CONTEXT_TOKENS, SimulatedChat, sleep } from './chat-completions';
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
  const images = options.images ?? new ImagePool();
  const locate = locator(images);

  const server: Server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (error instanceof ImageRefused && !res.headersSent) return openaiError(res, 400, error.message, 'invalid_request_error');
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'sandbox failure', type: 'server_error' } }));
    });
  });
  server.keepAliveTimeout = 30_000;

  const chat = new SimulatedChat({ random, timeScale, failures: options.failures !== false, locate });

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
    if (path === '/v1/chat/completions' && profile.wireFormat === 'openai') return chat.answer(profile, body, res);
    const decide = DECISION_ROUTES[profile.wireFormat];
    if (decide && path === decide.path) {
      if (chat.misfortune(profile, res)) return;
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
      return p ? fareOf(p, options.failures === false, timeScale) : null;
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

/** The request body as JSON (an empty body is an empty object). */
async function readBody(req: IncomingMessage): Promise<unknown> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return JSON.parse(text || '{}');
}

/** A simulated provider's scripted figures as the fleet plays them: what the cost model walks. */
function fareOf(p: SandboxProfile, quiet: boolean, timeScale: number): EndpointFare {
  return {
    faultRate: quiet ? 0 : p.failureRate,
    rateLimitRate: quiet ? 0 : p.rateLimitRate,
    retryAfterMs: p.retryAfterSeconds * 1000,
    latencyMs: p.latencyMedianMs * timeScale,
  };
}

/** The box the baseline finds in an image: its header checked first (a provider refuses what is past its limits), then decoded on the pool. */
function locator(images: ImagePool): Locate {
  return async (dataUrl) => {
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
}
