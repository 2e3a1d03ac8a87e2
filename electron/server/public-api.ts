import { Hono } from 'hono';
import { DecisionsRequestSchema, MAX_SESSION_ID_LENGTH, type DecisionsRequest } from '../../shared/schemas/decisions-request';
import { ApiKeyCreateInputSchema } from '../../shared/schemas/inspector';
import type { Core } from '../core/create-core';
import { GatewayError } from '../core/errors';
import { parseOrBadRequest } from '../core/validation';
import { bearerAuth, requireManagement, type PublicEnv } from './auth';
import { parseJsonText, rejectOtherMethods } from './http-errors';
import { callerGone, readBodyText } from './body';
import type { RequestLogEntry } from '../core/decisions/request-log';
import type { Answered } from '../core/service';

export interface PublicApiOptions {
  bodyLimitBytes: number;
}

const spanOf = (request: DecisionsRequest, sessionId: string | null, startMs: number, endMs: number) => ({
  trace: request.trace,
  model: request.model,
  sessionId,
  user: request.user ?? null,
  startMs,
  endMs,
});

/** The spec's public operations (section 4) plus key management for management keys. */
export function publicApi(core: Core, options: PublicApiOptions): Hono<PublicEnv> {
  const api = new Hono<PublicEnv>();
  const readJson = async (c: Parameters<typeof readBodyText>[0], what: string) => parseJsonText(await readBodyText(c, options.bodyLimitBytes), what);

  api.use('*', rejectOtherMethods(api));
  const auth = bearerAuth(core);
  api.use('/v1/*', auth);
  api.use('/alpha/*', auth);

  api.post('/alpha/decisions', async (c) => {
    const body = await readJson(c, 'a DecisionsRequest');
    const request = parseOrBadRequest(DecisionsRequestSchema, body, 'DecisionsRequest');
    // The body's session_id wins over the header; neither is ever sent to a provider.
    const sessionId = request.session_id ?? c.req.header('x-session-id') ?? null;
    if (sessionId !== null && sessionId.length > MAX_SESSION_ID_LENGTH) {
      throw new GatewayError('bad_request', `x-session-id: at most ${MAX_SESSION_ID_LENGTH} characters`);
    }
    const keyId = c.get('apiKey').id;
    core.apiKeys.admitCredit(keyId);
    const id = c.get('requestId');
    const started = core.clock.now();
    const logged = (status: number, outcome: Answered | null): RequestLogEntry => ({
      id,
      created_at: new Date(started).toISOString(),
      key_id: keyId,
      session_id: sessionId,
      user: request.user ?? null,
      model: request.model,
      provider: outcome?.response.provider ?? null,
      endpoint_id: outcome?.endpointId ?? null,
      status,
      latency_ms: Math.round((core.clock.now() - started) * 1000) / 1000,
      input_tokens: outcome?.response.usage.input_tokens ?? null,
      output_tokens: outcome?.response.usage.output_tokens ?? null,
      cost: outcome?.response.usage.cost ?? null,
      methods: outcome?.methods ?? null,
      question_count: Object.keys(request.questions).length,
    });
    try {
      const signal = callerGone(c);
      const outcome = await core.service().decide(request, { requestId: id, ...(signal ? { signal } : {}) });
      core.requestLog.append(logged(200, outcome));
      core.apiKeys.addSpend(keyId, outcome.response.usage.cost ?? 0);
      if (core.tracer.enabled()) {
        const usage = outcome.response.usage;
        core.tracer.record({ ...spanOf(request, sessionId, started, core.clock.now()), provider: outcome.response.provider ?? null, inputTokens: usage.input_tokens, outputTokens: usage.output_tokens, cost: usage.cost ?? null, error: null });
      }
      return c.json(outcome.response);
    } catch (error) {
      if (error instanceof GatewayError) {
        core.requestLog.append(logged(error.status, null));
        core.tracer.record({ ...spanOf(request, sessionId, started, core.clock.now()), provider: null, inputTokens: null, outputTokens: null, cost: null, error: error.message });
      }
      throw error;
    }
  });

  api.get('/v1/models/:author/:slug/endpoints', async (c) => {
    const modelId = `${c.req.param('author')}/${c.req.param('slug')}`;
    return c.json({ data: await core.service().listing(modelId) });
  });

  api.get('/v1/endpoints/zdr', async (c) => c.json({ data: await core.service().zdr() }));

  api.get('/v1/keys', (c) => {
    requireManagement(c.get('apiKey'));
    return c.json({ data: core.apiKeys.list() });
  });

  api.post('/v1/keys', async (c) => {
    requireManagement(c.get('apiKey'));
    const body = await readJson(c, 'a key to create');
    const input = parseOrBadRequest(ApiKeyCreateInputSchema, body, 'key');
    const created = core.apiKeys.create(input.name, input.kind, input);
    return c.json({ data: created.info, key: created.key }, 201);
  });

  api.delete('/v1/keys/:id', (c) => {
    requireManagement(c.get('apiKey'));
    return c.json({ data: core.apiKeys.revoke(c.req.param('id')) });
  });

  return api;
}
