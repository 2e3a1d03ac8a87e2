import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/**
 * Loopback providers that enforce what the real ones document for one representative model
 * each, and answer in their real wire formats. They refuse what the real provider refuses, with
 * its error body (recorded or documented: fixtures/recorded/SOURCES.md), so a request built
 * wrongly for a model fails here as it would there. One server; the first path segment names
 * the provider (`/openai/v1/chat/completions`, `/anthropic/v1/messages`, `/google/v1beta/…`).
 */

const RECORDED = join(import.meta.dirname, 'fixtures', 'recorded');
const recorded = (file: string): string => readFileSync(join(RECORDED, file), 'utf8').trim();

export interface Rule {
  provider: string;
  model: string;
  /** What a request to this model must not carry (checked in order), and the body the provider answers. */
  refuse: { when: (body: Record<string, unknown>, headers: IncomingMessage['headers']) => boolean; status: number; body: string }[];
  /** Output tokens the model spends thinking before it answers, given the request. */
  thinks?: (body: Record<string, unknown>) => number;
  /** Most alternatives per position it returns. */
  topLogprobs?: number;
}

const openaiError = (message: string, param: string | null, code: string | null, type = 'invalid_request_error') =>
  JSON.stringify({ error: { message, type, param, code } });
const has = (key: string) => (body: Record<string, unknown>) => body[key] !== undefined;
const config = (body: Record<string, unknown>) => (body['generationConfig'] ?? {}) as Record<string, unknown>;
const thinking = (body: Record<string, unknown>) => (config(body)['thinkingConfig'] ?? {}) as { thinkingBudget?: number; thinkingLevel?: string };

const REASONING_OPENAI: Rule['refuse'] = [
  { when: has('max_tokens'), status: 400, body: recorded('openai/error-400-unsupported-parameter-max-tokens.json') },
  { when: (b) => b['temperature'] !== undefined && b['temperature'] !== 1, status: 400, body: recorded('openai/error-400-unsupported-value-temperature.json') },
  {
    when: (b) => b['logprobs'] !== undefined || b['top_logprobs'] !== undefined,
    status: 400,
    body: openaiError("Unsupported parameter: 'logprobs' is not supported with this model.", 'logprobs', 'unsupported_parameter'),
  },
];

/** One representative current model per bundled provider, with the rules its documentation states. */
export const RULES: Rule[] = [
  {
    provider: 'openai',
    model: 'gpt-5-mini',
    refuse: [
      ...REASONING_OPENAI,
      {
        when: (b) => b['reasoning_effort'] !== undefined && !['minimal', 'low', 'medium', 'high'].includes(b['reasoning_effort'] as string),
        status: 400,
        body: openaiError("Unsupported value: 'reasoning_effort' does not support this value with this model.", 'reasoning_effort', 'unsupported_value'),
      },
    ],
    // Medium effort by default: hundreds of reasoning tokens before the answer; minimal: a few.
    thinks: (b) => (b['reasoning_effort'] === 'minimal' ? 8 : 320),
  },
  {
    provider: 'openai',
    model: 'o4-mini',
    refuse: [
      ...REASONING_OPENAI,
      {
        when: (b) => b['reasoning_effort'] === 'minimal',
        status: 400,
        body: openaiError("Unsupported value: 'minimal' is not supported with the 'o4-mini' model.", 'reasoning_effort', 'unsupported_value'),
      },
    ],
    thinks: (b) => (b['reasoning_effort'] === 'low' ? 64 : 512),
  },
  {
    provider: 'openai',
    model: 'gpt-4.1-mini',
    refuse: [
      {
        when: (b) => Number(b['top_logprobs'] ?? 0) > 20,
        status: 400,
        body: openaiError("Invalid 'top_logprobs': integer above maximum value. Expected a value <= 20.", 'top_logprobs', 'integer_above_max_value'),
      },
    ],
    topLogprobs: 20,
  },
  {
    provider: 'anthropic',
    model: 'claude-opus-4-7',
    refuse: [
      { when: has('temperature'), status: 400, body: recorded('anthropic/error-400-temperature-deprecated.json') },
      {
        when: (b) => !has('max_tokens')(b),
        status: 400,
        body: JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'max_tokens: Field required' } }),
      },
      {
        when: (b, h) => has('output_format')(b) && !String(h['anthropic-beta'] ?? '').includes('structured-outputs'),
        status: 400,
        body: JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'output_format: Extra inputs are not permitted' } }),
      },
      {
        when: (b) => ['logprobs', 'top_logprobs', 'stream_options'].some((k) => has(k)(b)),
        status: 400,
        body: JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'logprobs: Extra inputs are not permitted' } }),
      },
    ],
  },
  {
    provider: 'anthropic',
    model: 'claude-sonnet-4-5',
    refuse: [
      {
        when: (b) => ['logprobs', 'top_logprobs', 'stream_options'].some((k) => has(k)(b)),
        status: 400,
        body: JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'logprobs: Extra inputs are not permitted' } }),
      },
    ],
  },
  {
    provider: 'google-ai-studio',
    model: 'gemini-2.5-flash',
    refuse: [{ when: (b) => config(b)['responseLogprobs'] !== undefined, status: 400, body: recorded('google/error-400-logprobs-not-enabled.json') }],
    // Thinks unless told thinkingBudget 0 (https://ai.google.dev/gemini-api/docs/thinking).
    thinks: (b) => (thinking(b).thinkingBudget === 0 ? 0 : 600),
  },
  {
    provider: 'google-ai-studio',
    model: 'gemini-2.5-pro',
    refuse: [
      {
        when: (b) => config(b)['responseLogprobs'] !== undefined,
        status: 400,
        body: recorded('google/error-400-logprobs-not-enabled.json').replace('gemini-2.5-flash', 'gemini-2.5-pro'),
      },
      {
        when: (b) => thinking(b).thinkingBudget === 0,
        status: 400,
        body: JSON.stringify({ error: { code: 400, message: 'Budget 0 is invalid. This model only works in thinking mode.', status: 'INVALID_ARGUMENT' } }),
      },
    ],
    thinks: (b) => thinking(b).thinkingBudget ?? 900,
  },
  { provider: 'google-ai-studio', model: 'gemini-2.0-flash', refuse: [], topLogprobs: 20 },
  {
    provider: 'mistral',
    model: 'mistral-small-latest',
    refuse: [
      { when: has('stream_options'), status: 422, body: recorded('mistral/error-422-extra-forbidden-stream-options.json') },
      ...['logprobs', 'top_logprobs', 'reasoning_effort'].map((k) => ({
        when: has(k),
        status: 422,
        body: JSON.stringify({ detail: [{ type: 'extra_forbidden', loc: ['body', k], msg: 'Extra inputs are not permitted', input: true }] }),
      })),
    ],
  },
  {
    provider: 'together',
    model: 'meta-llama/Llama-3.3-70B-Instruct-Turbo',
    refuse: [
      {
        when: (b) => typeof b['logprobs'] === 'boolean',
        status: 400,
        body: JSON.stringify({
          error: { message: 'logprobs must be an integer between 0 and 20', type: 'invalid_request_error', param: 'logprobs', code: null },
        }),
      },
    ],
    topLogprobs: 20,
  },
  {
    provider: 'groq',
    model: 'llama-3.3-70b-versatile',
    refuse: [
      {
        when: (b) => b['logprobs'] !== undefined || b['top_logprobs'] !== undefined,
        status: 400,
        body: openaiError('`logprobs` is not supported with this model', 'logprobs', null),
      },
    ],
  },
  {
    provider: 'fireworks',
    model: 'accounts/fireworks/models/llama-v3p1-8b-instruct',
    refuse: [{ when: (b) => Number(b['top_logprobs'] ?? 0) > 5, status: 400, body: openaiError('top_logprobs must be at most 5', 'top_logprobs', null) }],
    topLogprobs: 5,
  },
  { provider: 'deepinfra', model: 'meta-llama/Meta-Llama-3.1-8B-Instruct', refuse: [], topLogprobs: 20 },
];

/**
 * A model newer than every capability table: it behaves as OpenAI's reasoning models do, while
 * the table (knowing only its family name) takes it for a classic chat model.
 */
export const UNKNOWN_REASONING: Rule = { provider: 'openai', model: 'gpt-6-preview', refuse: REASONING_OPENAI, thinks: () => 16 };

/**
 * A model a catalog says takes log-probabilities, on a host that answers them with OpenAI's 403
 * for its reasoning models (a body reconstructed from the documented envelope: SOURCES.md).
 */
export const LOGPROBS_FORBIDDEN: Rule = {
  provider: 'openai',
  model: 'gpt-5-chat-latest',
  refuse: [
    { when: (b) => b['logprobs'] !== undefined || b['top_logprobs'] !== undefined, status: 403, body: recorded('openai/error-403-logprobs-not-allowed.json') },
  ],
};

/** A host that answers that 403 to every request, log-probabilities or not: nothing is left to drop. */
export const ALWAYS_FORBIDDEN: Rule = {
  provider: 'openai',
  model: 'gpt-5-always-403',
  refuse: [{ when: () => true, status: 403, body: LOGPROBS_FORBIDDEN.refuse[0]!.body }],
};

/** Every model the server answers for. */
const SERVED = [...RULES, UNKNOWN_REASONING, LOGPROBS_FORBIDDEN, ALWAYS_FORBIDDEN];

/** What a prompt asks for, read the way a model would: a label, stated probabilities, or a box. */
function asked(prompt: string): { kind: 'label'; labels: string[] } | { kind: 'stated'; labels: string[] } | { kind: 'box'; reply: string } {
  if (prompt.includes('"box_2d"')) return { kind: 'box', reply: '{"box_2d": [100, 200, 500, 800]}' };
  const pixels = /\(it is (\d+) x (\d+) pixels\)/.exec(prompt);
  if (pixels) {
    const [w, h] = [Number(pixels[1]), Number(pixels[2])];
    return { kind: 'box', reply: JSON.stringify({ bbox_2d: [0.2 * w, 0.1 * h, 0.8 * w, 0.5 * h] }) };
  }
  if (prompt.includes('{"box":')) return { kind: 'box', reply: '{"box": {"top": 0.1, "bottom": 0.5, "left": 0.2, "right": 0.8}}' };
  const stated = /probability for each label \(([^)]*)\)/.exec(prompt);
  if (stated) return { kind: 'stated', labels: stated[1]!.split(', ') };
  if (prompt.includes('Answer Yes or No')) return { kind: 'label', labels: ['Yes', 'No'] };
  return { kind: 'label', labels: [...prompt.matchAll(/^([A-Z0-9]+)\) /gm)].map((m) => m[1]!) };
}

/** The model's belief: 0.7 on the first label, the rest shared. Stated: 0.6 on the first. */
export const FIRST_LABEL_LOGPROB = 0.7;
export const FIRST_LABEL_STATED = 0.6;
const share = (labels: string[], first: number) => labels.map((l, i) => [l, i === 0 ? first : (1 - first) / Math.max(1, labels.length - 1)] as const);

interface Reply {
  text: string;
  /** Tokens of the answer (a label is one). */
  tokens: number;
  top: { token: string; logprob: number }[] | null;
  thoughts: number;
  finish: 'stop' | 'length';
  input: number;
}

function reply(rule: Rule, prompt: string, limit: number, wantsLogprobs: number, body: Record<string, unknown>): Reply {
  const want = asked(prompt);
  const thoughts = rule.thinks?.(body) ?? 0;
  let text: string;
  let top: Reply['top'] = null;
  if (want.kind === 'box') text = want.reply;
  else if (want.kind === 'stated') text = JSON.stringify({ probabilities: Object.fromEntries(share(want.labels, FIRST_LABEL_STATED)) });
  else {
    text = want.labels[0]!;
    if (wantsLogprobs > 0)
      top = share(want.labels, FIRST_LABEL_LOGPROB)
        .slice(0, wantsLogprobs)
        .map(([token, p]) => ({ token, logprob: Math.log(p) }));
  }
  const input = Math.ceil(prompt.length / 4);
  const tokens = want.kind === 'label' ? 1 : Math.ceil(text.length / 4);
  // Thinking comes out of the same budget: with too little room, nothing is left for the answer.
  if (thoughts + tokens > limit) return { text: '', tokens: 0, top: null, thoughts: Math.min(thoughts, limit), finish: 'length', input };
  return { text, tokens, top, thoughts, finish: 'stop', input };
}

const textOf = (content: unknown): string =>
  typeof content === 'string' ? content : Array.isArray(content) ? content.map((p: { text?: string }) => p.text ?? '').join('') : '';

function openaiStream(res: ServerResponse, rule: Rule, body: Record<string, unknown>): void {
  const messages = body['messages'] as { role: string; content: unknown }[];
  const prompt = messages.map((m) => textOf(m.content)).join('\n');
  const limit = Number(body['max_completion_tokens'] ?? body['max_tokens'] ?? 4096);
  const together = rule.provider === 'together';
  const wants = together ? Number(body['logprobs'] ?? 0) : body['logprobs'] === true ? Number(body['top_logprobs'] ?? 0) : 0;
  const r = reply(rule, prompt, limit, Math.min(wants, rule.topLogprobs ?? 0), body);
  const usage = { prompt_tokens: r.input, completion_tokens: r.thoughts + r.tokens, total_tokens: r.input + r.thoughts + r.tokens };
  // Together's stream: `logprobs` is the chosen token's number and `top_logprobs` a map, on the choice.
  const lp = r.top
    ? together
      ? { logprobs: r.top[0]!.logprob, top_logprobs: Object.fromEntries(r.top.map((t) => [t.token, t.logprob])) }
      : { logprobs: { content: [{ token: r.text, logprob: r.top[0]!.logprob, bytes: null, top_logprobs: r.top }] } }
    : { logprobs: null };
  const chunks: unknown[] = [
    {
      id: 'chatcmpl-1',
      object: 'chat.completion.chunk',
      model: rule.model,
      choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }],
    },
  ];
  if (r.text)
    chunks.push({
      id: 'chatcmpl-1',
      object: 'chat.completion.chunk',
      model: rule.model,
      choices: [{ index: 0, delta: { content: r.text }, ...lp, finish_reason: null }],
    });
  // Providers that always send usage put it on the finishing chunk; OpenAI only with stream_options.
  const usageInline = ['mistral', 'together', 'fireworks', 'groq'].includes(rule.provider);
  chunks.push({
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    model: rule.model,
    choices: [{ index: 0, delta: {}, finish_reason: r.finish }],
    ...(usageInline ? { usage } : {}),
  });
  if (!usageInline && (body['stream_options'] as { include_usage?: boolean } | undefined)?.include_usage)
    chunks.push({ id: 'chatcmpl-1', object: 'chat.completion.chunk', choices: [], usage });
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.end(`${chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('')}data: [DONE]\n\n`);
}

function anthropicStream(res: ServerResponse, rule: Rule, body: Record<string, unknown>): void {
  const prompt = [textOf(body['system']), ...(body['messages'] as { content: unknown }[]).map((m) => textOf(m.content))].join('\n');
  const r = reply(rule, prompt, Number(body['max_tokens']), 0, body);
  const events: [string, unknown][] = [
    [
      'message_start',
      {
        type: 'message_start',
        message: {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          model: rule.model,
          content: [],
          stop_reason: null,
          usage: { input_tokens: r.input, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
        },
      },
    ],
    ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
    ...(r.text
      ? ([['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: r.text } }]] as [string, unknown][])
      : []),
    ['content_block_stop', { type: 'content_block_stop', index: 0 }],
    [
      'message_delta',
      {
        type: 'message_delta',
        delta: { stop_reason: r.finish === 'stop' ? 'end_turn' : 'max_tokens', stop_sequence: null },
        usage: { output_tokens: r.tokens },
      },
    ],
    ['message_stop', { type: 'message_stop' }],
  ];
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.end(events.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`).join(''));
}

function geminiStream(res: ServerResponse, rule: Rule, body: Record<string, unknown>): void {
  const contents = body['contents'] as { parts: { text?: string }[] }[];
  const prompt = [
    ((body['systemInstruction'] as { parts?: { text?: string }[] } | undefined)?.parts ?? []).map((p) => p.text ?? '').join(''),
    ...contents.map((c) => c.parts.map((p) => p.text ?? '').join('')),
  ].join('\n');
  const limit = Number(config(body)['maxOutputTokens'] ?? 8192);
  const wants = config(body)['responseLogprobs'] === true ? Number(config(body)['logprobs'] ?? 0) : 0;
  const r = reply(rule, prompt, limit, Math.min(wants, rule.topLogprobs ?? 0), body);
  const usageMetadata = {
    promptTokenCount: r.input,
    candidatesTokenCount: r.tokens,
    totalTokenCount: r.input + r.thoughts + r.tokens,
    ...(r.thoughts ? { thoughtsTokenCount: r.thoughts } : {}),
  };
  const candidate = {
    content: { role: 'model', parts: r.text ? [{ text: r.text }] : [] },
    finishReason: r.finish === 'stop' ? 'STOP' : 'MAX_TOKENS',
    ...(r.top
      ? {
          logprobsResult: {
            topCandidates: [{ candidates: r.top.map((t) => ({ token: t.token, logProbability: t.logprob })) }],
            chosenCandidates: [{ token: r.text, logProbability: r.top[0]!.logprob }],
          },
        }
      : {}),
  };
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.end(`data: ${JSON.stringify({ candidates: [candidate], usageMetadata, modelVersion: rule.model, responseId: 'resp-1' })}\r\n\r\n`);
}

export interface Received {
  provider: string;
  model: string;
  status: number;
  body: Record<string, unknown>;
}

export class StrictProviders {
  private server: Server | null = null;
  readonly received: Received[] = [];
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => this.answer(req, res, Buffer.concat(chunks).toString('utf8')));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** The base URL a provider slug is served at. */
  baseUrl(provider: string): string {
    return `${this.url}/${provider}${provider === 'google-ai-studio' ? '/v1beta' : '/v1'}`;
  }

  private answer(req: IncomingMessage, res: ServerResponse, text: string): void {
    const [, provider = '', ...rest] = (req.url ?? '').split('?')[0]!.split('/');
    const path = rest.join('/');
    if (req.method === 'GET') {
      // The model listing, in the provider's own shape.
      const models = SERVED.filter((r) => r.provider === provider).map((r) => r.model);
      const listing =
        provider === 'google-ai-studio'
          ? { models: models.map((m) => ({ name: `models/${m}`, displayName: m, supportedGenerationMethods: ['generateContent'] })) }
          : provider === 'anthropic'
            ? {
                data: models.map((m) => ({ type: 'model', id: m, display_name: m, created_at: '2026-01-01T00:00:00Z' })),
                has_more: false,
                first_id: models[0],
                last_id: models.at(-1),
              }
            : { object: 'list', data: models.map((m) => ({ id: m, object: 'model', created: 1_760_000_000, owned_by: provider })) };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(listing));
      return;
    }
    const body = JSON.parse(text) as Record<string, unknown>;
    const model = provider === 'google-ai-studio' ? decodeURIComponent(/models\/([^:]+):/.exec(path)?.[1] ?? '') : String(body['model']);
    const rule = SERVED.find((r) => r.provider === provider && r.model === model);
    const send = (status: number, payload: string) => {
      this.received.push({ provider, model, status, body });
      if (status !== 200) {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(payload);
      }
    };
    if (!rule)
      return send(404, JSON.stringify({ error: { message: `The model '${model}' does not exist`, type: 'invalid_request_error', code: 'model_not_found' } }));
    const refusal = rule.refuse.find((r) => r.when(body, req.headers));
    if (refusal) return send(refusal.status, refusal.body);
    send(200, '');
    if (path.startsWith('v1/chat/completions')) openaiStream(res, rule, body);
    else if (path.startsWith('v1/messages')) anthropicStream(res, rule, body);
    else geminiStream(res, rule, body);
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}
