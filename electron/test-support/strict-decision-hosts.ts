import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Questions$outboundSchema, State$outboundSchema } from '@openrouter/sdk/models/decisionsrequest.js';
import { openAiRequestCheck, prepareOpenAiRequestCheck } from './openai-decisions-schema';
import { hostDistribution, hostProbability, hostTokens } from './host-answers';

/**
 * Loopback hosts of both Decisions wire families that hold requests to what the real hosts
 * publish, and answer as they do: their paths, keys, envelopes, limits, rounding and error bodies
 * (fixtures/decisions/SOURCES.md names every source; bodies written from a documented envelope are
 * marked there as reconstructed). One server; the first path segment names the host.
 *
 * | host | route | request rules from |
 * |---|---|---|
 * | typesafe | POST /typesafe/v1/systemone | TypeSafe OpenAPI 0.2.0 (422 `detail[]`); 255 options and 10 levels: vercel/ai's guards; 64,000 tokens |
 * | openrouter | POST /openrouter/api/alpha/decisions | `@openrouter/sdk` 1.3.19's own zod schemas for state and questions; box since 2026-10-14; top-level `images` refused |
 * | perplexity | POST /perplexity/v1/decisions | NeuroLink's measurements: unknown fields refused, 128 questions, 8 images |
 * | cloudflare | POST /cloudflare/client/v4/accounts/acc-1/ai/run/@cf/cloudflare/{clef,clef-flash} | NeuroLink's: envelope, 64 questions, 2–255 options, 2–10 levels, 4 images, code 5012 |
 * | openai | POST /openai/v1/decisions | JSON Schema generated from `openai` 7.55.0's decisions.d.ts (unknown keys refused), with its documented 1–400 questions and 2–255 unique choices |
 * | fireworks | POST /fireworks/inference/v1/decisions | as openai, text only, 208 options (docs.fireworks.ai) |
 *
 * Answers come from a fixture when the request is the fixture's request, else from a hash of each
 * question (host-answers.ts), rounded as the host rounds. `script` replaces a host's next reply.
 */

export type HostName = 'typesafe' | 'openrouter' | 'perplexity' | 'cloudflare' | 'openai' | 'fireworks';
export const HOST_KEYS: Record<HostName, string> = {
  typesafe: 'ts-test-key-0001',
  openrouter: 'sk-or-test-0001',
  perplexity: 'pplx-test-0001',
  cloudflare: 'cf-test-token-0001',
  openai: 'sk-test-openai-0001',
  fireworks: 'fw-test-0001',
};

export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface Exchange {
  host: HostName;
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
  reply: Reply;
}

export interface DecisionHosts {
  url: string;
  exchanges: Exchange[];
  /** The last exchange with a host. */
  last(host: HostName): Exchange | undefined;
  /** Replaces the host's next reply (given what it was sent): a misbehaviour, a refusal, a 429. */
  script(host: HostName, reply: (body: Record<string, unknown>) => Reply): void;
  close(): Promise<void>;
}

const FIXTURES = join(import.meta.dirname, 'fixtures', 'decisions');
const fixture = (file: string): unknown => JSON.parse(readFileSync(join(FIXTURES, file), 'utf8'));
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

type Body = Record<string, unknown>;
type Q = { type?: unknown; instructions?: unknown; criteria?: unknown };
const isObject = (v: unknown): v is Body => typeof v === 'object' && v !== null && !Array.isArray(v);
const textOf = (v: unknown) => JSON.stringify(v ?? '');

/* ----- System One family ----- */

/** Spec-shaped answers (System One) for a request's questions, rounded to `decimals`. */
function systemOneAnswers(questions: Record<string, Q>, decimals: number, box?: (name: string) => Body): Body {
  const answers: Body = {};
  for (const [name, q] of Object.entries(questions)) {
    const seed = `${name}:${textOf(q)}`;
    if (q.type === 'noul') answers[name] = { type: 'noul', noul: hostProbability(seed, decimals) };
    else if (q.type === 'choice') {
      const options = Object.keys(q.criteria as Body);
      const d = hostDistribution(seed, options.length, decimals);
      answers[name] = {
        type: 'choice',
        choice: options[d.chosen],
        confidence: d.confidence,
        probabilities: Object.fromEntries(options.map((o, i) => [o, d.probabilities[i]])),
      };
    } else if (q.type === 'score') {
      const levels = q.criteria as unknown[];
      const d = hostDistribution(seed, levels.length, decimals);
      answers[name] = {
        type: 'score',
        score: d.mean,
        confidence: d.confidence,
        legend: Object.fromEntries(levels.map((c, i) => [String(i), c])),
        probabilities: Object.fromEntries(d.probabilities.map((p, i) => [String(i), p])),
      };
    } else if (q.type === 'box' && box) answers[name] = box(name);
  }
  return answers;
}

const stateText = (state: unknown) => (typeof state === 'string' ? state : JSON.stringify(state));

const fastApi422 = (issues: { loc: (string | number)[]; msg: string; type: string; input?: unknown; ctx?: Body }[]): Reply => ({
  status: 422,
  body: { detail: issues },
});

/** What TypeSafe's listing names: the OpenAPI's own example (`jev-latest`), and the builds it serves. */
export const TYPESAFE_MODELS = [
  { name: 'jev-latest', description: 'General-purpose system one model.', release_date: '2026-09-15' },
  { name: 'jev-1.13.0', description: 'Jev 1.13', release_date: '2026-09-17' },
  { name: 'jev-1.14.0', description: 'Jev 1.14 (images and boxes, beta)', release_date: '2026-10-20' },
];

/** TypeSafe: FastAPI's HTTPBearer (403 without a header), the OpenAPI's rules, its published limits. */
function typesafe(body: Body, headers: IncomingMessage['headers']): Reply {
  const auth = headers.authorization;
  // FastAPI's HTTPBearer answers a missing header 403 "Not authenticated" (NeuroLink: "a missing Authorization header returns 403, an invalid key returns 401").
  if (!auth) return { status: 403, body: { detail: 'Not authenticated' } };
  if (auth !== `Bearer ${HOST_KEYS.typesafe}`) return { status: 401, body: { detail: 'Invalid API key' } };
  const missing = ['model', 'state', 'questions'].filter((k) => !(k in body));
  if (missing.length > 0) return fastApi422(missing.map((k) => ({ loc: ['body', k], msg: 'Field required', type: 'missing', input: body })));
  const questions = body['questions'];
  if (!isObject(questions) || Object.keys(questions).length === 0)
    return fastApi422([{ loc: ['body', 'questions'], msg: 'Dictionary should have at least 1 item after validation, not 0', type: 'too_short' }]);
  const issues: Parameters<typeof fastApi422>[0] = [];
  for (const [name, q] of Object.entries(questions as Record<string, Q>)) {
    const at = ['body', 'questions', name];
    if (q.type !== 'noul' && q.type !== 'choice' && q.type !== 'score') {
      issues.push({
        loc: at,
        msg: `Input tag '${String(q.type)}' found using 'type' does not match any of the expected tags: 'noul', 'choice', 'score'`,
        type: 'union_tag_invalid',
      });
    } else if (q.type === 'choice' && !isObject(q.criteria)) issues.push({ loc: [...at, 'choice', 'criteria'], msg: 'Field required', type: 'missing' });
    else if (q.type === 'choice' && Object.keys(q.criteria as Body).length > 255)
      issues.push({ loc: [...at, 'choice', 'criteria'], msg: 'Dictionary should have at most 255 items after validation', type: 'too_long' });
    else if (q.type === 'score' && (!Array.isArray(q.criteria) || q.criteria.length === 0))
      issues.push({
        loc: [...at, 'score', 'criteria'],
        msg: 'List should have at least 1 item after validation, not 0',
        type: 'too_short',
        ctx: { min_length: 1 },
      });
    else if (q.type === 'score' && (q.criteria as unknown[]).length > 10)
      issues.push({ loc: [...at, 'score', 'criteria'], msg: 'List should have at most 10 items after validation', type: 'too_long', ctx: { max_length: 10 } });
  }
  if (issues.length > 0) return fastApi422(issues);
  // Past TypeSafe's ceiling: "observed in production" by vercel/ai's TypeSafe provider tests.
  if (hostTokens(stateText(body['state']) + JSON.stringify(questions)) > 64_000) return { status: 400, body: { error_type: 'max_tokens_exceeded' } };
  const model = body['model'] === 'jev-latest' ? 'jev-1.13.0' : body['model'];
  if (!['jev-1.13.0', 'jev-1.14.0'].includes(String(model))) return { status: 400, body: { detail: 'Invalid request.' } };
  const request = fixture('typesafe/evaluation-request.json');
  if (same({ model: 'jev-latest', state: body['state'], questions }, request)) return { status: 200, body: fixture('typesafe/decision-response.json') };
  const text = stateText(body['state']) + JSON.stringify(questions);
  return {
    status: 200,
    body: {
      model,
      answers: systemOneAnswers(questions as Record<string, Q>, 2),
      usage: { input_tokens: hostTokens(text), output_tokens: 18 * Object.keys(questions).length },
    },
  };
}

const openRouterError = (code: number, message: string): Reply => ({ status: code, body: { error: { code, message } } });

/** OpenRouter's alpha Decisions: its SDK's own schemas for state and questions, box questions over image parts in state, `cost` in usage. */
function openrouter(body: Body, headers: IncomingMessage['headers']): Reply {
  const auth = headers.authorization;
  if (!auth) return openRouterError(401, 'No auth credentials found');
  if (auth !== `Bearer ${HOST_KEYS.openrouter}`) return openRouterError(401, 'User not found.');
  if ('images' in body) return openRouterError(400, 'images is not a field of a Decisions request: put image parts in the state array');
  if (typeof body['model'] !== 'string') return openRouterError(400, 'model: expected a string');
  if (!State$outboundSchema.safeParse(body['state']).success) return openRouterError(400, 'state: expected a string, an object or an array');
  const questions = body['questions'];
  if (!isObject(questions) || Object.keys(questions).length === 0) return openRouterError(400, 'questions: at least one question is required');
  for (const [name, q] of Object.entries(questions)) {
    // Box questions are accepted since 2026-10-14 (OpenRouter Python SDK 1.3.55); the TypeScript SDK's schema predates them.
    const valid = (q as Q).type === 'box' ? typeof (q as Q).instructions === 'string' : Questions$outboundSchema.safeParse(q).success;
    if (!valid) return openRouterError(400, `questions.${name}: invalid question`);
  }
  const request = fixture('openrouter/decisions-request.json');
  if (same({ model: body['model'], state: body['state'], questions }, request)) return { status: 200, body: fixture('openrouter/decisions-response.json') };
  const state = Array.isArray(body['state']) ? body['state'] : [];
  const hasImage = state.some((item) => isObject(item) && item['type'] === 'image_url');
  for (const [name, q] of Object.entries(questions)) {
    if ((q as Q).type === 'box' && !hasImage) return openRouterError(400, `questions.${name}: a box question needs an image part in state`);
  }
  const answers = systemOneAnswers(questions as Record<string, Q>, 2, (name) => {
    const d = hostDistribution(`box:${name}`, 4, 2);
    return {
      type: 'box',
      box: { top: 0.1, bottom: 0.1 + Math.max(0.05, d.probabilities[0]!), left: 0.2, right: 0.2 + Math.max(0.05, d.probabilities[1]!) },
      confidence: d.confidence,
    };
  });
  const input = hostTokens(stateText(body['state']) + JSON.stringify(questions));
  return {
    status: 200,
    body: {
      id: `gen-dec-${Date.now()}`,
      model: `${String(body['model'])}-20260917`,
      provider: 'TypeSafe',
      answers,
      usage: { input_tokens: input, output_tokens: 20, cost: +(input * 0.042e-6).toPrecision(6) },
    },
  };
}

const perplexityError = (status: number, message: string, type: string, code: string | number | null, param: null | undefined = null): Reply => ({
  status,
  body: { error: { message, type, code, ...(param === null ? { param } : {}) } },
});

/** Perplexity's `/v1/decisions`: the key first, unknown fields refused, 128 questions, 8 images (NeuroLink's measurements). */
function perplexity(body: Body, headers: IncomingMessage['headers']): Reply {
  if (headers.authorization !== `Bearer ${HOST_KEYS.perplexity}`) return perplexityError(401, 'Invalid API key provided', 'invalid_api_key', 401, undefined);
  const unknown = Object.keys(body).find((k) => !['model', 'state', 'questions'].includes(k));
  if (unknown) return perplexityError(400, `Unknown field: ${unknown}`, 'invalid_request_error', null);
  const questions = (body['questions'] ?? {}) as Record<string, Q>;
  if (Object.keys(questions).length > 128)
    return perplexityError(400, `At most 128 questions are allowed, got ${Object.keys(questions).length}`, 'invalid_request_error', 'invalid_request');
  const images = Array.isArray(body['state']) ? body['state'].filter((i) => isObject(i) && i['type'] === 'image_url').length : 0;
  if (images > 8) return perplexityError(400, `At most 8 images are allowed per question, got ${images}`, 'invalid_request_error', 'invalid_request');
  for (const [name, q] of Object.entries(questions)) {
    if (q.type === 'score' && (q.criteria as unknown[]).length > 10)
      return perplexityError(400, `questions.${name}: at most 10 levels`, 'invalid_request_error', 'invalid_request');
  }
  if (same(body, fixture('perplexity/decision-request.json'))) return { status: 200, body: fixture('perplexity/decision-response.json') };
  const text = stateText(body['state']) + JSON.stringify(questions);
  return { status: 200, body: { model: body['model'], answers: systemOneAnswers(questions, 2), usage: { input_tokens: hostTokens(text), output_tokens: 0 } } };
}

const cloudflareError = (status: number, code: number, message: string): Reply => ({
  status,
  body: { success: false, errors: [{ code, message }], messages: [], result: null },
});

/** Cloudflare Workers AI (Clef): the envelope, code 5012 for what it will not take, four decimals. */
function cloudflare(body: Body, headers: IncomingMessage['headers'], model: string): Reply {
  if (headers.authorization !== `Bearer ${HOST_KEYS.cloudflare}`) return cloudflareError(401, 10000, 'Authentication error');
  const unknown = Object.keys(body).find((k) => !['model', 'state', 'questions', 'images'].includes(k));
  if (unknown) return cloudflareError(422, 5012, `Unknown field: ${unknown}`);
  if (body['model'] !== undefined && body['model'] !== `@cf/cloudflare/${model}` && body['model'] !== model)
    return cloudflareError(400, 5006, 'model does not match the route');
  const questions = (body['questions'] ?? {}) as Record<string, Q>;
  const names = Object.keys(questions);
  if (names.length === 0 || names.length > 64) return cloudflareError(422, 5012, `questions: between 1 and 64, got ${names.length}`);
  for (const [name, q] of Object.entries(questions)) {
    if (!/^[A-Za-z0-9_.-]{1,100}$/.test(name)) return cloudflareError(422, 5012, `questions.${name}: invalid question id`);
    if (q.type === 'choice' && !(Object.keys(q.criteria as Body).length >= 2 && Object.keys(q.criteria as Body).length <= 255))
      return cloudflareError(422, 5012, `questions.${name}: between 2 and 255 options`);
    if (q.type === 'score' && !((q.criteria as unknown[]).length >= 2 && (q.criteria as unknown[]).length <= 10))
      return cloudflareError(422, 5012, `questions.${name}: between 2 and 10 levels`);
    if (q.type !== 'noul' && q.type !== 'choice' && q.type !== 'score') return cloudflareError(400, 5006, `questions.${name}: unknown question type`);
  }
  if (Array.isArray(body['images']) && body['images'].length > 4) return cloudflareError(422, 5012, 'images: at most 4');
  const text = stateText(body['state']) + JSON.stringify(questions);
  return {
    status: 200,
    body: {
      result: { model, answers: systemOneAnswers(questions, 4), usage: { input_tokens: hostTokens(text), output_tokens: 0 } },
      success: true,
      errors: [],
      messages: [],
    },
  };
}

/* ----- OpenAI's family ----- */

const openAiError = (status: number, message: string, param: string | null, code: string | null, type = 'invalid_request_error'): Reply => ({
  status,
  body: { error: { message, type, param, code } },
});

/** OpenAI's `/v1/decisions` (and Fireworks' copy): the schema from the SDK's types, then what the doc comments state. */
function openAiFamily(which: 'openai' | 'fireworks', body: Body, headers: IncomingMessage['headers']): Reply {
  const auth = headers.authorization;
  if (!auth)
    return openAiError(
      401,
      "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
      null,
      null,
    );
  if (auth !== `Bearer ${HOST_KEYS[which]}`)
    return openAiError(
      401,
      'Incorrect API key provided: sk-****. You can find your API key at https://platform.openai.com/account/api-keys.',
      null,
      'invalid_api_key',
    );
  const problem = openAiRequestCheck(body);
  if (problem) return openAiError(400, problem.message, problem.param, problem.code);
  const questions = body['questions'] as Body[];
  if (which === 'fireworks') {
    if (JSON.stringify(body['input']).includes('"input_image"'))
      return openAiError(400, 'input_image parts are not supported: this route is text only', 'input', null);
    const wide = questions.findIndex((q) => Array.isArray(q['choices']) && q['choices'].length > 208);
    if (wide >= 0) return openAiError(400, 'A choice question can have at most 208 choices', `questions[${wide}].choices`, null);
  }
  const answers = questions.map((q) => {
    const name = (q['name'] as string | undefined) ?? null;
    const seed = `${String(name)}:${textOf(q)}`;
    if (q['type'] === 'predicate') return { type: 'predicate', name, probability: hostProbability(seed, 2) };
    if (q['type'] === 'choice') {
      const choices = q['choices'] as { value: string | boolean }[];
      const d = hostDistribution(seed, choices.length, 2);
      return {
        type: 'choice',
        name,
        choice: choices[d.chosen]!.value,
        confidence: d.confidence,
        probabilities: choices.map((c, i) => ({ value: c.value, probability: d.probabilities[i] })),
      };
    }
    const levels = q['levels'] as { label: string }[];
    const d = hostDistribution(seed, levels.length, 2);
    return {
      type: 'score',
      name,
      score: d.mean,
      confidence: d.confidence,
      probabilities: levels.map((l, i) => ({ value: i, label: l.label, probability: d.probabilities[i] })),
    };
  });
  const input = hostTokens(JSON.stringify(body['input']) + JSON.stringify(questions));
  return {
    status: 200,
    body: {
      model: body['model'],
      answers,
      usage: {
        input_tokens: input,
        input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
        output_tokens: answers.length,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: input + answers.length,
      },
    },
  };
}

/* ----- The server ----- */

function route(path: string): { host: HostName; answer: (body: Body, headers: IncomingMessage['headers']) => Reply } | null {
  if (path === '/typesafe/v1/systemone') return { host: 'typesafe', answer: typesafe };
  if (path === '/openrouter/api/alpha/decisions') return { host: 'openrouter', answer: openrouter };
  if (path === '/perplexity/v1/decisions') return { host: 'perplexity', answer: perplexity };
  const clef = /^\/cloudflare\/client\/v4\/accounts\/acc-1\/ai\/run\/@cf\/cloudflare\/(clef|clef-flash)$/.exec(path);
  if (clef) return { host: 'cloudflare', answer: (b, h) => cloudflare(b, h, clef[1]!) };
  if (path === '/openai/v1/decisions') return { host: 'openai', answer: (b, h) => openAiFamily('openai', b, h) };
  if (path === '/fireworks/inference/v1/decisions') return { host: 'fireworks', answer: (b, h) => openAiFamily('fireworks', b, h) };
  return null;
}

export async function startDecisionHosts(): Promise<DecisionHosts> {
  prepareOpenAiRequestCheck();
  const exchanges: Exchange[] = [];
  const scripts = new Map<HostName, ((body: Body) => Reply)[]>();
  const server: Server = createServer((req, res) => void handle(req, res));

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let text = '';
    for await (const chunk of req) text += chunk;
    const path = new URL(req.url ?? '/', 'http://hosts').pathname;
    const found = req.method === 'POST' ? route(path) : null;
    const send = (reply: Reply) => {
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      res.end(JSON.stringify(reply.body));
    };
    // TypeSafe's model listing (`ModelMetadataList`, OpenAPI 0.2.0), behind the same key.
    if (req.method === 'GET' && path === '/typesafe/v1/models') {
      if (req.headers.authorization !== `Bearer ${HOST_KEYS.typesafe}`) return send({ status: 401, body: { detail: 'Invalid API key' } });
      return send({ status: 200, body: { models: TYPESAFE_MODELS } });
    }
    if (!found) return send({ status: 404, body: { detail: 'Not Found' } });
    let body: Body;
    try {
      body = JSON.parse(text) as Body;
    } catch {
      return send({
        status: 400,
        body: { error: { message: 'We could not parse the JSON body of your request.', type: 'invalid_request_error', param: null, code: null } },
      });
    }
    const scripted = scripts.get(found.host)?.shift();
    const reply = scripted ? scripted(body) : found.answer(body, req.headers);
    exchanges.push({ host: found.host, path, headers: req.headers, body, reply });
    send(reply);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    exchanges,
    last: (host) => exchanges.filter((e) => e.host === host).at(-1),
    script: (host, reply) => scripts.set(host, [...(scripts.get(host) ?? []), reply]),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
