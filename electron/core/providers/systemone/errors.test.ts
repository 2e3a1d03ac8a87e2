import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UpstreamError, kindForStatus, upstreamMessage } from '../upstream-error';
import { classifySystemOneError } from './errors';

const FIXTURES = join(import.meta.dirname, '..', '..', '..', 'test-support', 'fixtures', 'decisions');
const body = (file: string) => readFileSync(join(FIXTURES, file), 'utf8');
const classify = (status: number, text: string) =>
  classifySystemOneError(status, text, new UpstreamError(kindForStatus(status), `HTTP ${status}: ${upstreamMessage(text)}`, { status }));

/** The System One family's published error bodies, read into messages that say what the host objected to. */
describe('System One error bodies', () => {
  it("TypeSafe's 422 (its OpenAPI's own example) names the field, as TypeSafe's SDK does", () => {
    const error = classify(422, body('typesafe/error-422-missing-state.json'));
    expect(error.kind).toBe('bad_request');
    expect(error.message).toBe('HTTP 422: state: Field required');
  });

  it("TypeSafe's 404 body is read; its max_tokens_exceeded (no message at all) is said in words", () => {
    expect(classify(404, body('typesafe/error-404-not-found.json')).message).toBe('HTTP 404: Not Found');
    const long = classify(400, '{"error_type":"max_tokens_exceeded"}');
    expect(long.message).toBe('HTTP 400: the state and questions are longer than the model reads (max_tokens_exceeded)');
    expect(long.kind).toBe('bad_request');
  });

  it("Cloudflare's envelope is read; its daily allocation used up is a quota, not a passing rate limit", () => {
    const limit = classify(422, '{"success":false,"errors":[{"code":5012,"message":"questions: between 1 and 64, got 65"}],"messages":[],"result":null}');
    expect(limit.message).toBe('HTTP 422: code 5012: questions: between 1 and 64, got 65');
    const quota = classify(429, '{"success":false,"errors":[{"code":4006,"message":"you have used up your daily free allocation of 10,000 neurons"}]}');
    expect(quota.kind).toBe('quota');
    expect(classify(429, '{"success":false,"errors":[{"code":3040,"message":"Capacity temporarily exceeded"}]}').kind).toBe('rate_limited');
  });

  it("OpenRouter's and Perplexity's {error: {message}} are read as the status's default reads them", () => {
    expect(classify(401, '{"error":{"message":"Invalid API key provided","type":"invalid_api_key","code":401}}')).toMatchObject({
      kind: 'auth',
      message: 'HTTP 401: Invalid API key provided',
    });
  });
});
