import { sqliteOf } from '../test-support/sqlite-of';
import { OpenRouter } from '@openrouter/sdk';
import * as sdkErrors from '@openrouter/sdk/models/errors';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogFileSchema } from '../../shared/schemas/catalog';
import { ScriptedUpstream } from '../test-support/scripted-upstream';
import { tempDir } from '../test-support/temp-core';
import { ERROR_BODY, WIRE } from '../test-support/wire-fixtures';
import { startServer, type RunningServer } from './start-server';

const CHUNK = `data: ${JSON.stringify({ id: 'x', choices: [{ index: 0, delta: { content: 'Y' } }] })}\n\n`;
const MODEL = {
  id: 'acme/judge',
  name: 'Judge',
  created: 1,
  architecture: { input_modalities: ['text'], output_modalities: ['text'], modality: 'text->text', instruct_type: null, tokenizer: null },
};

/** Decisions through the real server on a socket, with providers on loopback speaking their wire formats. */
describe('POST /api/alpha/decisions end to end', () => {
  let server: RunningServer;
  let upstream: ScriptedUpstream;
  const dirs = [tempDir(), tempDir()];
  let key: string;

  beforeAll(async () => {
    upstream = await new ScriptedUpstream().start();
    server = await startServer({
      port: 0,
      host: '127.0.0.1',
      dataDir: dirs[0]!.path,
      rendererDir: dirs[1]!.path,
      version: 'test',
      overrideGlobalObjects: false,
      sandbox: { seed: 1, failures: false, timeScale: 0.02 },
      timeouts: { deadlineMs: 5_000, attemptMs: 1_000 },
    });
    await server.core.replaceCatalogFile(
      CatalogFileSchema.parse({
        version: 1,
        providers: [
          { slug: 'acme', name: 'Acme', wire_format: 'openai', base_url: `${upstream.url}/v1`, local: true },
          { slug: 'keyless', name: 'Keyless Cloud', wire_format: 'openai', base_url: `${upstream.url}/v1` },
        ],
        models: [MODEL],
        endpoints: [
          {
            model_id: 'acme/judge',
            provider: 'acme',
            upstream_model: 'judge-1',
            pricing: { prompt: '0.000001', completion: '0.000001' },
            supported_parameters: ['logprobs', 'top_logprobs', 'max_tokens'],
          },
          {
            model_id: 'acme/judge',
            provider: 'keyless',
            upstream_model: 'judge-1',
            pricing: { prompt: '0.0000001', completion: '0.0000001' },
            supported_parameters: ['logprobs'],
          },
        ],
      }),
    );
    await server.core.handlers['settings.update']({ sandbox: 'on' });
    key = (await server.core.apiKeys.create('caller', 'standard')).key;
  });
  afterAll(async () => {
    await server.close();
    await upstream.close();
    for (const d of dirs) d.cleanup();
  });

  const ask = (body: unknown, apiKey = key, headers: Record<string, string> = {}) =>
    fetch(`${server.url}/api/alpha/decisions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  const judge = { model: 'acme/judge', state: 'The parcel came two days late.', questions: { late: { type: 'noul', instructions: 'Was it late?' } } };
  async function status(response: Response) {
    const body = (await response.json()) as { error: { code: number; message: string } };
    expect(body.error.code).toBe(response.status);
    return { status: response.status, message: body.error.message, retryAfter: response.headers.get('retry-after') };
  }

  it('the official client sends a request and accepts every answer type it knows', async () => {
    const client = new OpenRouter({ apiKey: key, retryConfig: { strategy: 'none' } });
    const result = await client.alpha.decisions.create(
      {
        decisionsRequest: {
          model: 'sandbox/baseline-text',
          state: 'The parcel arrived two days late and the box was damaged.',
          questions: {
            late: { type: 'noul', instructions: 'Did the parcel arrive late?' },
            topic: { type: 'choice', instructions: 'Topic?', criteria: { delivery: 'parcel arrived late or damaged', billing: 'invoice or payment' } },
            severity: { type: 'score', instructions: 'How bad?', criteria: ['fine', 'late parcel', 'damaged parcel arrived late'] },
          },
          sessionId: 'sdk-session',
        },
      },
      { serverURL: server.url },
    );
    expect(result.model).toBe('sandbox/baseline-text');
    expect(result.provider).toMatch(/\(simulated\)$/);
    expect(result.answers['late']).toMatchObject({ type: 'noul' });
    expect(result.answers['topic']).toMatchObject({ type: 'choice', choice: 'delivery' });
    expect(result.answers['severity']).toMatchObject({ type: 'score' });
    expect(result.usage.inputTokens).toBeGreaterThan(0);
    await server.core.requestLog.flush();
    const [logged] = server.core.requestLog.recent({ limit: 10, sessionId: 'sdk-session' });
    expect(logged).toMatchObject({ session_id: 'sdk-session', model: 'sandbox/baseline-text', status: 200, question_count: 3 });
    expect(logged!.cost).toBe(result.usage.cost);
    // Metadata only: nothing of the state, the questions or the answers reaches the disk.
    const onDisk = readdirSync(join(server.core.options.dataDir, 'requests'))
      .map((f) => readFileSync(join(server.core.options.dataDir, 'requests', f), 'utf8'))
      .join('');
    expect(onDisk).toContain('sdk-session');
    expect(onDisk).not.toMatch(/parcel|invoice|damaged|Topic/);
    expect(sqliteOf(server.core).get('SELECT COUNT(*) AS n FROM decisions')).toEqual({ n: 0 });
  });

  it('the body session_id wins over the x-session-id header', async () => {
    upstream.script(
      WIRE.openai('Yes', {
        top: [
          { token: 'Yes', logprob: -0.1 },
          { token: 'No', logprob: -2.4 },
        ],
      }),
    );
    expect((await ask({ ...judge, session_id: 'from-body' }, key, { 'x-session-id': 'from-header' })).status).toBe(200);
    upstream.script(
      WIRE.openai('Yes', {
        top: [
          { token: 'Yes', logprob: -0.1 },
          { token: 'No', logprob: -2.4 },
        ],
      }),
    );
    expect((await ask(judge, key, { 'x-session-id': 'only-header' })).status).toBe(200);
    await server.core.requestLog.flush();
    const sessions = server.core.requestLog
      .recent({ limit: 100 })
      .map((r) => r.session_id)
      .filter((s) => s === 'from-body' || s === 'from-header' || s === 'only-header');
    // Newest first.
    expect(sessions).toEqual(['only-header', 'from-body']);
    expect(JSON.stringify(upstream.received.slice(-2).map((r) => r.body))).not.toMatch(/from-body|only-header|session/);
  });

  it('session_id and user are counted in characters, and a too-long one is named where it came from', async () => {
    // 256 emoji are 512 UTF-16 units but 256 characters: allowed, in the body or the header.
    const emoji = '🙂'.repeat(256);
    upstream.script(
      WIRE.openai('Yes', {
        top: [
          { token: 'Yes', logprob: -0.1 },
          { token: 'No', logprob: -2.4 },
        ],
      }),
    );
    expect((await ask({ ...judge, session_id: emoji, user: emoji })).status).toBe(200);
    upstream.script(
      WIRE.openai('Yes', {
        top: [
          { token: 'Yes', logprob: -0.1 },
          { token: 'No', logprob: -2.4 },
        ],
      }),
    );
    expect((await ask(judge, key, { 'x-session-id': encodeURIComponent('é').repeat(1) })).status).toBe(200);
    const body = await status(await ask({ ...judge, session_id: `${emoji}x` }, key, { 'x-session-id': 'short' }));
    expect(body).toMatchObject({ status: 400 });
    expect(body.message).toContain('session_id is at most 256 characters');
    expect(body.message).not.toContain('x-session-id');
    const header = await status(await ask(judge, key, { 'x-session-id': 'h'.repeat(257) }));
    expect(header.message).toBe('x-session-id: at most 256 characters');
  });

  it('a caller that hangs up cancels the upstream call at once, long before its timeout', async () => {
    upstream.script({ kind: 'stall-before-headers' });
    const before = upstream.received.length;
    const caller = new AbortController();
    const pending = fetch(`${server.url}/api/alpha/decisions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(judge),
      signal: caller.signal,
    }).catch((e: Error) => e);
    while (upstream.received.length === before) await new Promise((r) => setTimeout(r, 5));
    const call = upstream.received.at(-1)!;
    expect(call.closedAt).toBeNull();
    const hungUpAt = Date.now();
    caller.abort();
    expect(await pending).toBeInstanceOf(Error);
    while (call.closedAt === null && Date.now() - hungUpAt < 900) await new Promise((r) => setTimeout(r, 5));
    // The attempt timeout is 1,000 ms: only the caller's hang-up can have closed it this soon.
    expect(call.closedAt).not.toBeNull();
    expect(call.closedAt! - hungUpAt).toBeLessThan(500);
  });

  it.each([
    ['500 from the provider', { kind: 'respond', status: 500, chunks: [ERROR_BODY.openai('boom')] }, 502, /acme: HTTP 500: boom/],
    [
      'a malformed answer',
      { kind: 'respond', status: 200, headers: { 'content-type': 'text/event-stream' }, chunks: ['data: {oops\n\n'] },
      502,
      /malformed stream chunk/,
    ],
    ['an overloaded provider', { kind: 'respond', status: 529, chunks: [ERROR_BODY.openai('overloaded')] }, 529, /overloaded/],
    [
      'an upstream rate limit',
      { kind: 'respond', status: 429, headers: { 'content-type': 'application/json', 'retry-after': '9' }, chunks: [ERROR_BODY.openai('slow down')] },
      429,
      /slow down/,
    ],
    ['a stalled stream', { kind: 'stall-after-first-chunk', status: 200, chunks: [CHUNK] }, 524, /timed out/],
  ] as const)(
    '%s: the caller gets the mapped status, naming the provider',
    async (_name, script, expected, message) => {
      const previous = server.core.health.snapshot('acme:acme:acme/judge');
      expect(previous.paused).toBe(false);
      upstream.script(script as never);
      const response = await ask({ ...judge, provider: { order: ['acme'], allow_fallbacks: false } });
      const result = await status(response);
      expect(result.status).toBe(expected);
      expect(result.message).toMatch(message);
      if (expected === 429) expect(Number(result.retryAfter)).toBeGreaterThanOrEqual(8);
      server.core.health.onSuccess('acme:acme:acme/judge');
    },
    40_000,
  );

  it('503 when no provider is available (the only one allowed needs a key that is not set)', async () => {
    const before = upstream.received.length;
    const result = await status(await ask({ ...judge, provider: { only: ['keyless'] } }));
    expect(result.status).toBe(503);
    expect(result.message).toMatch(/keyless: no API key is set for Keyless Cloud/);
    expect(upstream.received.length).toBe(before);
  });

  it('400 and 404 from validation and the catalog', async () => {
    expect((await status(await ask({ ...judge, questions: { q: { type: 'score', instructions: 'x', criteria: [] } } }))).status).toBe(400);
    expect((await status(await ask({ ...judge, model: 'acme/none' }))).status).toBe(404);
  });

  it('402 once what is left of a key credit cannot cover the most a request may cost, 429 with Retry-After over its rate', async () => {
    const limited = (await server.core.apiKeys.create('tight', 'standard', { credit_limit: 0.002, rate_limit_rpm: 2 })).key;
    upstream.script(
      WIRE.openai('Yes', {
        top: [
          { token: 'Yes', logprob: -0.1 },
          { token: 'No', logprob: -2.4 },
        ],
        usage: { prompt: 1000, completion: 1 },
      }),
    );
    expect((await ask(judge, limited)).status).toBe(200);
    const payment = await status(await ask(judge, limited));
    expect(payment.status).toBe(402);
    expect(payment.message).toMatch(/has \$0\.000999 of its \$0\.002 credit free, and this request may cost up to \$0\.00\d+/);
    const rate = await status(await ask(judge, limited));
    expect(rate.status).toBe(429);
    expect(rate.message).toMatch(/limited to 2 requests per minute/);
    expect(Number(rate.retryAfter)).toBeGreaterThan(0);
    const info = (await server.core.apiKeys.list()).find((k) => k.name === 'tight')!;
    expect(info.spent).toBeCloseTo(0.001001, 9);
  });

  it('trace keys reach each configured OTLP destination as one span', async () => {
    const collector = await new ScriptedUpstream().start();
    collector.always({ kind: 'respond', status: 200, chunks: ['{}'] });
    try {
      await server.core.handlers['settings.update']({ trace_destinations: [collector.url] });
      upstream.script(
        WIRE.openai('Yes', {
          top: [
            { token: 'Yes', logprob: -0.1 },
            { token: 'No', logprob: -2.4 },
          ],
        }),
      );
      const response = await ask({ ...judge, trace: { trace_id: 'run-2026-11-22', span_name: 'grade-late', team: 'support' }, user: 'analyst-7' });
      expect(response.status).toBe(200);
      await server.core.tracer.flush();
      const posted = collector.received.find((r) => r.path === '/v1/traces')!.body as {
        resourceSpans: { scopeSpans: { spans: { name: string; attributes: { key: string }[] }[] }[] }[];
      };
      const spanSent = posted.resourceSpans[0]!.scopeSpans[0]!.spans[0]!;
      expect(spanSent.name).toBe('grade-late');
      expect(spanSent.attributes.map((a) => a.key)).toEqual(expect.arrayContaining(['trace.metadata.team', 'user.id', 'gen_ai.request.model']));
    } finally {
      await server.core.handlers['settings.update']({ trace_destinations: [] });
      await collector.close();
    }
  });

  it('box answers over plain HTTP (outside the official client schema)', async () => {
    const { pngWithRect } = await import('../test-support/images');
    const response = await ask({
      model: 'sandbox/baseline-vision',
      state: ['Find the card.', { type: 'image_url', image_url: { url: pngWithRect(400, 300, { x: 100, y: 150, w: 200, h: 100 }) } }],
      questions: { card: { type: 'box', instructions: 'the card' } },
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { answers: { card: { type: string; box: { top: number; left: number; bottom: number; right: number } } } };
    expect(body.answers.card.type).toBe('box');
    expect(body.answers.card.box.top).toBeCloseTo(0.5, 2);
    expect(body.answers.card.box.left).toBeCloseTo(0.25, 2);
    expect(body.answers.card.box.bottom).toBeCloseTo(0.8333, 2);
    expect(body.answers.card.box.right).toBeCloseTo(0.75, 2);
    const refused = await ask({
      model: 'sandbox/baseline-vision',
      state: [{ type: 'image_url', image_url: { url: 'https://example.com/cat.png' } }],
      questions: { card: { type: 'box', instructions: 'the card' } },
    });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/only data: URLs are accepted/);
  });

  it('the official client raises its typed errors for 402 and 429', async () => {
    const broke = (await server.core.apiKeys.create('broke', 'standard', { credit_limit: 0.0000001, rate_limit_rpm: null })).key;
    await server.core.spend.charge((await server.core.apiKeys.list()).find((k) => k.name === 'broke')!.id, 1);
    const client = new OpenRouter({ apiKey: broke, retryConfig: { strategy: 'none' } });
    const error = await client.alpha.decisions.create({ decisionsRequest: judge as never }, { serverURL: server.url }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(sdkErrors.PaymentRequiredResponseError);
  });
});
