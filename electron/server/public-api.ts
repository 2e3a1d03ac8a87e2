import { Hono } from 'hono';
import { ApiKeyCreateInputSchema, ApiKeyLimitsInputSchema } from '../../shared/schemas/inspector';
import { AuditListInputSchema } from '../../shared/schemas/audit';
import { CaptureRuleInputSchema } from '../../shared/schemas/capture';
import { type Core, parseOrBadRequest, parseStrictOrBadRequest, GatewayError, isGatewayError, SHAPES, answerShape } from '../core';
import { bearerAuth, managementActor, requireManagement, type PublicEnv } from './auth';
import { rejectOtherMethods } from './http-errors';
import { callerGone, readBodyJson } from './body';
import type { BodyMemory } from './body-memory';
import { openApiDocument } from './openapi';
import { modelsList, outputModalitiesFilter } from './models-list';
import type { MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { currentKey } from './current-key';

/**
 * Answers a route's errors in its clients' shape: an error any step raised (the key, the body, the
 * route) is turned into `shape`'s body with the same status and headers (Retry-After, Allow).
 */
function inShape(shape: (error: GatewayError) => unknown): MiddlewareHandler<PublicEnv> {
  return async (c, next) => {
    await next();
    if (!c.error) return;
    // The app's error handler has already logged a fault of ours; its caller learns only the request id.
    const requestId = c.get('requestId');
    const error = isGatewayError(c.error)
      ? c.error
      : new GatewayError('internal', `Internal server error (request ${requestId})`, { metadata: { request_id: requestId } });
    c.res = c.json(shape(error), error.status as ContentfulStatusCode, error.headers);
  };
}

export interface PublicApiOptions {
  bodyLimitBytes: number;
  bodyMemory: BodyMemory;
}

/** The spec's public operations (section 4) plus key management for management keys. */
export function publicApi(core: Core, options: PublicApiOptions): Hono<PublicEnv> {
  const api = new Hono<PublicEnv>();
  const readJson = (c: Parameters<typeof readBodyJson>[0], what: string) => readBodyJson(c, options.bodyLimitBytes, options.bodyMemory, what);

  api.use('*', rejectOtherMethods(api));
  // Errors in the shape each route's clients read (the key's refusal included): OpenAI's error object, the AI SDK gateway's.
  for (const shape of SHAPES) if (shape.errorBody) api.use(shape.path, inShape(shape.errorBody));
  // The API's own description holds no secret: it is served without a key.
  api.get('/v1/openapi.json', (c) => c.json(openApiDocument(core.options.version || '0.0.0')));
  const auth = bearerAuth(core);
  api.use('/v1/*', async (c, next) => (c.req.path.endsWith('/v1/openapi.json') ? next() : auth(c, next)));
  api.use('/alpha/*', auth);
  api.use('/ai/*', auth);

  // Each Decisions shape the field's clients speak, answered by any model (docs/API.md).
  for (const shape of SHAPES)
    api.post(shape.path, async (c) => {
      // Parsed where it is read: the body's text is not kept while the request is answered.
      const json = await readJson(c, shape.what);
      const { body, settle } = await answerShape(core, shape, {
        json,
        header: (name) => c.req.header(name),
        key: c.get('apiKey'),
        requestId: c.get('requestId'),
        signal: callerGone(c),
      });
      settle();
      return c.json(body);
    });

  listingRoutes(api, core);
  managementRoutes(api, core, readJson);

  return api;
}

/** The listings: models, a model's endpoints, ZDR endpoints, and the bearer key's own figures. */
function listingRoutes(api: Hono<PublicEnv>, core: Core): void {
  // The models this gateway serves, so a caller can find a valid id (OpenRouter's models-list shape and filter).
  api.get('/v1/models', (c) => {
    const outputs = outputModalitiesFilter(c.req.query('output_modalities'));
    return c.json(
      modelsList(
        core.catalog.listModels().map((m) => core.listings.listing(m.id)),
        outputs,
      ),
    );
  });

  api.get('/v1/models/:author/:slug/endpoints', async (c) => {
    const modelId = `${c.req.param('author')}/${c.req.param('slug')}`;
    return c.json({ data: await core.service().listing(modelId) });
  });

  api.get('/v1/endpoints/zdr', async (c) => c.json({ data: await core.service().zdr() }));

  // The human stage's queue: what waits for people, for how long, and how fast they answer (management keys).
  api.get('/v1/reviews', async (c) => {
    requireManagement(c.get('apiKey'));
    return c.json({ data: await core.humanStage.figures() });
  });

  // A request a cascade sent to a person: pending, or the person's answers (the key that made it, or a management key).
  api.get('/v1/reviews/:id', async (c) => {
    const key = c.get('apiKey');
    return c.json({ data: await core.humanStage.state(c.req.param('id'), { id: key.id, kind: key.kind }) });
  });

  // The bearer key's own figures, as OpenRouter's GET /api/v1/key gives them (any key, its own only).
  api.get('/v1/key', async (c) => {
    const id = c.get('apiKey').id;
    const [info, periods] = await Promise.all([core.apiKeys.stored(id), core.spend.periods(id)]);
    return c.json({ data: currentKey(info && { info, ...periods }) });
  });
}

/** Keys, capture rules and the audit log, for management keys; each change names the bearer key as its actor. */
function managementRoutes(api: Hono<PublicEnv>, core: Core, readJson: (c: Parameters<typeof readBodyJson>[0], what: string) => Promise<unknown>): void {
  api.get('/v1/keys', async (c) => {
    requireManagement(c.get('apiKey'));
    return c.json({ data: await core.apiKeys.list() });
  });

  // Key management names the bearer management key as the actor of each change in the audit log.
  api.post('/v1/keys', async (c) => {
    const actor = managementActor(c.get('apiKey'));
    const body = await readJson(c, 'a key to create');
    const input = parseStrictOrBadRequest(ApiKeyCreateInputSchema, body, 'key');
    const created = await core.keyManagement.create(actor, input);
    return c.json({ data: created.info, key: created.key }, 201);
  });

  api.patch('/v1/keys/:id', async (c) => {
    const actor = managementActor(c.get('apiKey'));
    const limits = parseStrictOrBadRequest(ApiKeyLimitsInputSchema, await readJson(c, 'the limits to set'), 'limits');
    return c.json({ data: await core.keyManagement.updateLimits(actor, c.req.param('id'), limits) });
  });

  api.delete('/v1/keys/:id', async (c) => {
    const actor = managementActor(c.get('apiKey'));
    return c.json({ data: await core.keyManagement.revoke(actor, c.req.param('id')) });
  });

  // Capture rules: which live requests become dataset items (docs/API.md, "Capture rules").
  api.get('/v1/captures', async (c) => {
    requireManagement(c.get('apiKey'));
    return c.json({ data: await core.captures.list() });
  });

  api.post('/v1/captures', async (c) => {
    const actor = managementActor(c.get('apiKey'));
    const input = parseStrictOrBadRequest(CaptureRuleInputSchema, await readJson(c, 'a capture rule'), 'capture rule');
    return c.json({ data: await core.captures.create(actor, input) }, 201);
  });

  api.delete('/v1/captures/:id', async (c) => {
    const actor = managementActor(c.get('apiKey'));
    return c.json({ data: await core.captures.remove(actor, c.req.param('id')) });
  });

  api.get('/v1/audit', async (c) => {
    requireManagement(c.get('apiKey'));
    const query = c.req.query();
    const input = parseOrBadRequest(
      AuditListInputSchema,
      {
        ...(query['offset'] !== undefined ? { offset: Number(query['offset']) } : {}),
        ...(query['limit'] !== undefined ? { limit: Number(query['limit']) } : {}),
        ...(query['actor_kind'] !== undefined ? { actor_kind: query['actor_kind'] } : {}),
        ...(query['actor_key_id'] !== undefined ? { actor_key_id: query['actor_key_id'] } : {}),
        ...(query['target_kind'] !== undefined ? { target_kind: query['target_kind'] } : {}),
      },
      'query',
    );
    return c.json({ data: await core.audit.list(input) });
  });
}
