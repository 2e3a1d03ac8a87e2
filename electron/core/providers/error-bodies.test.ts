import { scriptedUpstreamSuite } from '../../test-support/upstream-suite';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../clock';
import { OPEN_CAPABILITIES } from '../../test-support/catalog-fixtures';
import { anthropicAdapter } from './anthropic/adapter';
import { classifyAnthropicError } from './anthropic/errors';
import { geminiAdapter } from './gemini/adapter';
import { classifyGeminiError, durationMs } from './gemini/errors';
import { openaiAdapter } from './openai/adapter';
import { classifyOpenAiError } from './openai/errors';
import type { ChatRequest, ProviderAdapter } from './types';
import { UpstreamError, requestParameter, type ErrorClassifier } from './upstream-error';

/**
 * Provider error bodies (fixtures/recorded, sources in SOURCES.md) served over a loopback socket
 * and classified by each provider folder's errors.ts: a key out of quota, a retry delay in the
 * body, an endpoint that does not take a parameter; the caller's own mistakes stay bad_request.
 */

const fixture = (path: string): string => readFileSync(new URL(`../../test-support/fixtures/recorded/${path}`, import.meta.url), 'utf8');

const suite = scriptedUpstreamSuite();
const http = suite.http;

async function failure(status: number, body: string, classify: ErrorClassifier, headers: Record<string, string> = {}): Promise<UpstreamError> {
  suite.upstream.script({ kind: 'respond', status, headers: { 'content-type': 'application/json', ...headers }, chunks: [body] });
  const error = await http.postJson(`${suite.upstream.url}/v1/x`, {}, { headers: {}, signal: AbortSignal.timeout(2_000), classify }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(UpstreamError);
  return error as UpstreamError;
}

interface Row {
  name: string;
  status: number;
  body: () => string;
  classify: ErrorClassifier;
  kind: UpstreamError['kind'];
  parameter?: string;
  headers?: Record<string, string>;
  retryAfterMs?: number;
}

const ROWS: Row[] = [
  // Quota: a key problem, not a passing rate limit, whatever the status.
  {
    name: 'OpenAI 429 insufficient_quota',
    status: 429,
    body: () => fixture('openai/error-429-insufficient-quota.json'),
    classify: classifyOpenAiError,
    kind: 'quota',
  },
  {
    name: 'OpenAI-compatible 403 insufficient_quota',
    status: 403,
    body: () => fixture('openai/error-429-insufficient-quota.json'),
    classify: classifyOpenAiError,
    kind: 'quota',
  },
  {
    name: 'OpenAI 429 rate limit',
    status: 429,
    body: () =>
      JSON.stringify({
        error: {
          message: 'Rate limit reached for gpt-4o in organization org-x on requests per min (RPM): Limit 500, Used 500, Requested 1.',
          type: 'requests',
          param: null,
          code: 'rate_limit_exceeded',
        },
      }),
    classify: classifyOpenAiError,
    kind: 'rate_limited',
  },
  // Unsupported parameters: the endpoint's capability, named as the request names it.
  {
    name: 'OpenAI max_tokens on a reasoning model',
    status: 400,
    body: () => fixture('openai/error-400-unsupported-parameter-max-tokens.json'),
    classify: classifyOpenAiError,
    kind: 'unsupported',
    parameter: 'max_tokens',
  },
  {
    name: 'OpenAI temperature 0 on a reasoning model',
    status: 400,
    body: () => fixture('openai/error-400-unsupported-value-temperature.json'),
    classify: classifyOpenAiError,
    kind: 'unsupported',
    parameter: 'temperature',
  },
  {
    name: 'OpenAI system role on o1-mini (recorded)',
    status: 400,
    body: () => fixture('openai/error-400-o1-mini-unsupported-value-system-role.json'),
    classify: classifyOpenAiError,
    kind: 'unsupported',
    parameter: 'messages[0].role',
  },
  {
    name: 'OpenAI web_search_options with code null (recorded)',
    status: 400,
    body: () => fixture('openai/error-400-unsupported-parameter-null-code.json'),
    classify: classifyOpenAiError,
    kind: 'unsupported',
    parameter: 'web_search_options',
  },
  // A refusal of a parameter is the endpoint's capability whatever the status; a 403 about the key is not.
  {
    name: 'OpenAI 403 logprobs on a reasoning model (reconstructed)',
    status: 403,
    body: () => fixture('openai/error-403-logprobs-not-allowed.json'),
    classify: classifyOpenAiError,
    kind: 'unsupported',
    parameter: 'logprobs',
  },
  {
    name: 'OpenAI 403 for a model the key may not use',
    status: 403,
    body: () => JSON.stringify({ error: { message: 'You are not allowed to sample from this model', type: 'invalid_request_error', param: null, code: null } }),
    classify: classifyOpenAiError,
    kind: 'auth',
  },
  {
    name: 'OpenAI 403 for a project without access to the model',
    status: 403,
    body: () =>
      JSON.stringify({
        error: { message: 'Project `proj_x` does not have access to model `gpt-5`', type: 'invalid_request_error', param: null, code: 'model_not_found' },
      }),
    classify: classifyOpenAiError,
    kind: 'auth',
  },
  {
    name: 'OpenAI-compatible 403 for a region the provider does not serve',
    status: 403,
    body: () =>
      JSON.stringify({
        error: { code: 'unsupported_country_region_territory', message: 'Country, region, or territory not supported', param: null, type: 'request_forbidden' },
      }),
    classify: classifyOpenAiError,
    kind: 'auth',
  },
  {
    name: 'OpenAI 401 bad key',
    status: 401,
    body: () =>
      JSON.stringify({
        error: {
          message: 'Incorrect API key provided: sk-test. You can find your API key at https://platform.openai.com/account/api-keys.',
          type: 'invalid_request_error',
          param: null,
          code: 'invalid_api_key',
        },
      }),
    classify: classifyOpenAiError,
    kind: 'auth',
  },
  {
    name: 'Anthropic 403 permission error',
    status: 403,
    body: () =>
      JSON.stringify({ type: 'error', error: { type: 'permission_error', message: 'Your API key does not have permission to use the specified resource.' } }),
    classify: classifyAnthropicError,
    kind: 'auth',
  },
  {
    name: 'Gemini 403 permission denied',
    status: 403,
    body: () =>
      JSON.stringify({
        error: {
          code: 403,
          message:
            "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
          status: 'PERMISSION_DENIED',
        },
      }),
    classify: classifyGeminiError,
    kind: 'auth',
  },
  {
    name: 'Mistral 422 extra_forbidden (documented HTTPValidationError)',
    status: 422,
    body: () => fixture('mistral/error-422-extra-forbidden-stream-options.json'),
    classify: classifyOpenAiError,
    kind: 'unsupported',
    parameter: 'stream_options',
  },
  {
    name: 'Mistral 422 extra_forbidden inside an error envelope',
    status: 422,
    body: () =>
      JSON.stringify({
        object: 'error',
        message: { detail: [{ type: 'extra_forbidden', loc: ['body', 'top_logprobs'], msg: 'Extra inputs are not permitted', input: 5 }] },
        type: 'invalid_request_error',
        param: null,
        code: null,
      }),
    classify: classifyOpenAiError,
    kind: 'unsupported',
    parameter: 'top_logprobs',
  },
  {
    name: 'Anthropic temperature deprecated',
    status: 400,
    body: () => fixture('anthropic/error-400-temperature-deprecated.json'),
    classify: classifyAnthropicError,
    kind: 'unsupported',
    parameter: 'temperature',
  },
  {
    name: 'Anthropic thinking type not supported',
    status: 400,
    body: () =>
      JSON.stringify({
        type: 'error',
        error: { type: 'invalid_request_error', message: '`thinking.type.enabled` is not supported for this model. Use `thinking.type.adaptive` instead.' },
      }),
    classify: classifyAnthropicError,
    kind: 'unsupported',
    parameter: 'thinking',
  },
  {
    name: 'Gemini logprobs not enabled',
    status: 400,
    body: () => fixture('google/error-400-logprobs-not-enabled.json'),
    classify: classifyGeminiError,
    kind: 'unsupported',
    parameter: 'logprobs',
  },
  {
    name: 'Gemini unknown generationConfig field',
    status: 400,
    body: () =>
      JSON.stringify({
        error: {
          code: 400,
          message: 'Invalid JSON payload received. Unknown name "thinkingConfig" at \'generation_config\': Cannot find field.',
          status: 'INVALID_ARGUMENT',
        },
      }),
    classify: classifyGeminiError,
    kind: 'unsupported',
    parameter: 'thinking',
  },
  // Retry delays: Gemini's RetryInfo when no header says; a header wins.
  {
    name: 'Gemini 429 RetryInfo 17s',
    status: 429,
    body: () => fixture('google/error-429-retry-info.json'),
    classify: classifyGeminiError,
    kind: 'rate_limited',
    retryAfterMs: 17_000,
  },
  {
    name: 'Gemini 429 RetryInfo with a Retry-After header',
    status: 429,
    body: () => fixture('google/error-429-retry-info.json'),
    classify: classifyGeminiError,
    kind: 'rate_limited',
    headers: { 'retry-after': '3' },
    retryAfterMs: 3_000,
  },
  // The caller's own input stays the caller's.
  {
    name: 'OpenAI content too long',
    status: 400,
    body: () =>
      JSON.stringify({
        error: {
          message:
            "Invalid 'messages[0].content': string too long. Expected a string with maximum length 10485760, but got a string with length 10485761 instead.",
          type: 'invalid_request_error',
          param: 'messages[0].content',
          code: 'string_above_max_length',
        },
      }),
    classify: classifyOpenAiError,
    kind: 'bad_request',
  },
  {
    name: 'Mistral 422 temperature out of range',
    status: 422,
    body: () =>
      JSON.stringify({
        detail: [{ type: 'less_than_equal', loc: ['body', 'temperature'], msg: 'Input should be less than or equal to 1.5', input: 3, ctx: { le: 1.5 } }],
      }),
    classify: classifyOpenAiError,
    kind: 'bad_request',
  },
  {
    name: 'Anthropic empty text block',
    status: 400,
    body: () => JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'messages: text content blocks must be non-empty' } }),
    classify: classifyAnthropicError,
    kind: 'bad_request',
  },
  {
    name: 'Gemini invalid argument',
    status: 400,
    body: () => JSON.stringify({ error: { code: 400, message: 'Request contains an invalid argument.', status: 'INVALID_ARGUMENT' } }),
    classify: classifyGeminiError,
    kind: 'bad_request',
  },
  {
    name: 'Anthropic unknown model (recorded 404)',
    status: 404,
    body: () => fixture('anthropic/error-404-not-found-model.json'),
    classify: classifyAnthropicError,
    kind: 'not_found',
  },
  { name: 'A body that is not JSON', status: 400, body: () => '<html>Bad Request</html>', classify: classifyOpenAiError, kind: 'bad_request' },
];

describe('error bodies are classified by the provider folder that reads them', () => {
  it.each(ROWS)('$name → $kind', async (row) => {
    const error = await failure(row.status, row.body(), row.classify, row.headers);
    expect(error.kind).toBe(row.kind);
    expect(error.details.status).toBe(row.status);
    expect(error.message).toMatch(new RegExp(`^HTTP ${row.status}: `));
    expect(error.details.parameter).toBe(row.parameter);
    if (row.retryAfterMs !== undefined) expect(error.details.retryAfterMs).toBe(row.retryAfterMs);
  });
});

describe('each adapter passes its classifier to the call', () => {
  const request: ChatRequest = { messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }], maxTokens: 1, temperature: 0 };
  const cases: [string, ProviderAdapter, string, string, string][] = [
    ['openai', openaiAdapter, '/v1', fixture('openai/error-400-unsupported-value-temperature.json'), 'temperature'],
    ['anthropic', anthropicAdapter, '/v1', fixture('anthropic/error-400-temperature-deprecated.json'), 'temperature'],
    ['gemini', geminiAdapter, '/v1beta', fixture('google/error-400-logprobs-not-enabled.json'), 'logprobs'],
  ];
  it.each(cases)('%s', async (_name, adapter, base, body, parameter) => {
    suite.upstream.script({ kind: 'respond', status: 400, chunks: [body] });
    const error = await adapter.chat!(
      { baseUrl: `${suite.upstream.url}${base}`, model: 'm', apiKey: 'k', capabilities: OPEN_CAPABILITIES, host: null },
      request,
      { http, clock: systemClock, signal: AbortSignal.timeout(2_000) },
    ).catch((e: unknown) => e);
    expect((error as UpstreamError).kind).toBe('unsupported');
    expect((error as UpstreamError).details.parameter).toBe(parameter);
  });
});

describe('names and durations', () => {
  it.each([
    ['max_completion_tokens', 'max_tokens'],
    ['generation_config.response_logprobs', 'logprobs'],
    ['generationConfig.responseSchema', 'response_format'],
    ['thinking.type.enabled', 'thinking'],
    ['reasoning_effort', 'reasoning_effort'],
    ['stream_options.include_usage', 'stream_options'],
    ['web_search_options', 'web_search_options'],
  ])('%s is %s', (raw, name) => {
    expect(requestParameter(raw)).toBe(name);
  });

  it.each([
    ['17s', 17_000],
    ['0.5s', 500],
    ['1.000340s', 1_001],
    ['17', undefined],
    [17, undefined],
  ] as const)('retryDelay %s is %s ms', (value, ms) => {
    expect(durationMs(value)).toBe(ms);
  });
});
