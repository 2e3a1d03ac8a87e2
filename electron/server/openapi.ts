import { CaptureRuleInputSchema, CaptureRuleSchema } from '../../shared/schemas/capture';
import { z } from 'zod';
import { DecisionsRequestSchema } from '../../shared/schemas/decisions-request';
import { DecisionsResponseSchema } from '../../shared/schemas/decisions-response';
import { ZdrEndpointSchema } from '../../shared/schemas/endpoint';
import { ErrorEnvelopeSchema } from '../../shared/schemas/error-envelope';
import { ApiKeyCreateInputSchema, ApiKeyInfoSchema, ApiKeyLimitsInputSchema } from '../../shared/schemas/inspector';
import { AuditPageSchema } from '../../shared/schemas/audit';
import { ModelWithEndpointsSchema } from '../../shared/schemas/model';
import { ModelsListSchema } from '../../shared/schemas/models-list';
import { OpenAiDecisionRequestSchema, OpenAiDecisionSchema, OpenAiErrorBodySchema } from '../../shared/schemas/openai-decisions';
import { GatewayDecisionRequestSchema, GatewayDecisionResponseSchema, GatewayErrorBodySchema, SHAPES, type PublicShape } from '../core';

type JsonSchema = Record<string, unknown>;

/** A zod schema as JSON Schema 2020-12 (OpenAPI 3.1's dialect): requests as accepted, responses as sent. */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const out = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema;
  delete out['$schema'];
  return out;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: JsonSchema, description: string) => ({ description, content: { 'application/json': { schema } } });
/** A required JSON request body. */
const body = (schema: JsonSchema) => ({ required: true, content: { 'application/json': { schema } } });
/** The `{ "data": … }` envelope every listing and management answer comes in. */
const data = (schema: JsonSchema) => ({ type: 'object', properties: { data: schema }, required: ['data'] });
/** An array of a named schema. */
const listOf = (name: string) => ({ type: 'array', items: ref(name) });
/** Required string parameters in the path, by name. */
const inPath = (...names: string[]) => names.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));

const ERRORS: Record<string, string> = {
  '400': 'Invalid request parameters or malformed input (the message names the field; JSON deeper than 64 levels is refused)',
  '401': 'Authentication required or invalid credentials',
  '402': 'The key has no credit left for the most this request may cost',
  '403': 'The key lacks permission (only management keys may perform this operation), or a foreign Host',
  '404': 'The model, route or resource does not exist',
  '413': 'The request body is larger than the server accepts',
  '429': 'Rate limit exceeded (Retry-After says when to try again)',
  '500': 'Unexpected server error (metadata.request_id matches the server log)',
  '502': 'Provider or upstream API failure, after every allowed endpoint was tried',
  '503': 'No provider available',
  '524': 'Provider timeout, or the request deadline passed',
  '529': 'Provider overloaded',
};
const errors = (...codes: string[]) => Object.fromEntries(codes.map((code) => [code, json(ref('ErrorEnvelope'), ERRORS[code]!)]));

const DECISION_ERRORS = ['400', '401', '402', '403', '404', '413', '429', '500', '502', '503', '524', '529'];

/** A Decisions shape's operation, from what the shape says of itself (core/public-api/shapes). */
function decisionOperation(shape: PublicShape) {
  const { openapi } = shape;
  const errorSchema = openapi.errorSchema;
  return {
    operationId: openapi.operationId,
    summary: openapi.summary,
    ...(openapi.headers
      ? {
          parameters: openapi.headers.map((h) => ({
            name: h.name,
            in: 'header',
            required: h.required,
            schema: { type: 'string' },
            ...(h.description ? { description: h.description } : {}),
          })),
        }
      : {}),
    requestBody: body(openapi.request as JsonSchema),
    responses: {
      '200': json(openapi.response as JsonSchema, openapi.responseDescription),
      ...(errorSchema
        ? Object.fromEntries(DECISION_ERRORS.map((code) => [code, json(ref(errorSchema.ref), `${ERRORS[code]} (${errorSchema.description})`)]))
        : errors(...DECISION_ERRORS)),
    },
  };
}

let built: JsonSchema | null = null;

/**
 * The public API as an OpenAPI 3.1 document, generated from the same zod schemas that validate
 * requests and responses, so it cannot drift from what the server accepts and sends.
 */
export function openApiDocument(version: string): JsonSchema {
  built ??= {
    openapi: '3.1.0',
    info: {
      title: 'Verdict gateway API',
      version,
      description: 'Decisions (typed answers to named questions), model endpoint listings and the ZDR preview. See docs/API.md for what each number means.',
    },
    servers: [{ url: '/' }],
    security: [{ bearer: [] }],
    paths: {
      ...Object.fromEntries(SHAPES.map((shape) => [`/api${shape.path}`, { post: decisionOperation(shape) }])),
      ...listingPaths(),
      ...keyPaths(),
      ...capturePaths(),
      '/api/v1/openapi.json': {
        get: { operationId: 'openApi', summary: 'This document', security: [], responses: { '200': json({ type: 'object' }, 'The OpenAPI document') } },
      },
    },
    components: components(),
  };
  return built;
}

/** The listings: models, a model's endpoints, and the ZDR endpoints. */
function listingPaths(): Record<string, JsonSchema> {
  return {
    '/api/v1/models': {
      get: {
        operationId: 'listModels',
        summary: "Every model this gateway serves, in the shape of OpenRouter's models list",
        parameters: [
          {
            name: 'output_modalities',
            in: 'query',
            required: false,
            schema: { type: 'string' },
            description: 'Comma-separated output modalities (text, decisions) or all; text when absent',
          },
        ],
        responses: { '200': json(ref('ModelsList'), 'The models, by id'), ...errors('401', '403', '500') },
      },
    },
    '/api/v1/models/{author}/{slug}/endpoints': {
      get: {
        operationId: 'listEndpoints',
        summary: 'Every endpoint serving a model, with prices, limits and measured figures',
        parameters: inPath('author', 'slug'),
        responses: {
          '200': json(data(ref('ModelWithEndpoints')), 'The model and its endpoints'),
          ...errors('401', '403', '404', '500'),
        },
      },
    },
    '/api/v1/endpoints/zdr': {
      get: {
        operationId: 'listZdrEndpoints',
        summary: 'Endpoints that retain no prompts',
        responses: {
          '200': json(data(listOf('ZdrEndpoint')), 'Zero-data-retention endpoints'),
          ...errors('401', '403', '500'),
        },
      },
    },
  };
}

/** The caller's own key, and the management routes: keys, their limits, capture rules, the audit log. */
function keyPaths(): Record<string, JsonSchema> {
  return {
    '/api/v1/key': {
      get: {
        operationId: 'getCurrentKey',
        summary:
          "The bearer key's own label, usage (in all, today, this week and this month, UTC), credit limit and what remains of it, and rate limit, as OpenRouter's GET /api/v1/key",
        responses: {
          '200': json(data({ type: 'object' }), "The key's figures"),
          ...errors('401', '500'),
        },
      },
    },
    '/api/v1/keys': {
      get: {
        operationId: 'listKeys',
        summary: 'API keys (management keys only)',
        responses: {
          '200': json(data(listOf('ApiKey')), 'Every key, without secrets'),
          ...errors('401', '403', '500'),
        },
      },
      post: {
        operationId: 'createKey',
        summary: 'Create an API key (management keys only); the key is shown once',
        requestBody: body(ref('ApiKeyCreate')),
        responses: {
          '201': json({ type: 'object', properties: { data: ref('ApiKey'), key: { type: 'string' } }, required: ['data', 'key'] }, 'The new key'),
          ...errors('400', '401', '403', '500'),
        },
      },
    },
    '/api/v1/keys/{id}': {
      delete: {
        operationId: 'revokeKey',
        summary: 'Revoke an API key (management keys only)',
        parameters: inPath('id'),
        responses: {
          '200': json(data(ref('ApiKey')), 'The revoked key'),
          ...errors('401', '403', '404', '500'),
        },
      },
      patch: {
        operationId: 'setKeyLimits',
        summary: "Change an API key's credit and rate limits (management keys only; null: no limit); logged in the audit log",
        parameters: inPath('id'),
        requestBody: body(ref('ApiKeyLimits')),
        responses: {
          '200': json(data(ref('ApiKey')), 'The key with its new limits'),
          ...errors('400', '401', '403', '404', '500'),
        },
      },
    },
    '/api/v1/audit': {
      get: {
        operationId: 'auditLog',
        summary: 'Who created, changed or revoked keys, limits, sets and datasets, newest first (management keys only)',
        parameters: ['offset', 'limit', 'actor_kind', 'actor_key_id', 'target_kind'].map((name) => ({
          name,
          in: 'query',
          required: false,
          schema: name === 'offset' || name === 'limit' ? { type: 'integer' } : { type: 'string' },
        })),
        responses: {
          '200': json(data(ref('AuditPage')), 'A page of the audit log'),
          ...errors('400', '401', '403', '500'),
        },
      },
    },
  };
}

/** Capture rules and the human stage's reviews (management keys, but a review for the key that asked). */
function capturePaths(): Record<string, JsonSchema> {
  return {
    '/api/v1/captures': {
      get: {
        operationId: 'listCaptureRules',
        summary: 'Capture rules, with what each took today and holds (management keys only)',
        responses: {
          '200': json(data(listOf('CaptureRule')), 'Every rule'),
          ...errors('401', '403', '500'),
        },
      },
      post: {
        operationId: 'createCaptureRule',
        summary: "Make a capture rule (management keys only): live Decisions requests it picks become its dataset's items, answers as predictions",
        requestBody: body(ref('CaptureRuleInput')),
        responses: {
          '201': json(data(ref('CaptureRule')), 'The new rule'),
          ...errors('400', '401', '403', '500'),
        },
      },
    },
    '/api/v1/captures/{id}': {
      delete: {
        operationId: 'deleteCaptureRule',
        summary: 'Remove a capture rule (management keys only); what it captured stays in its dataset',
        parameters: inPath('id'),
        responses: {
          '200': json(data({ type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } } }), 'The removed rule'),
          ...errors('401', '403', '404', '500'),
        },
      },
    },
    '/api/v1/reviews/{id}': {
      get: {
        operationId: 'getReview',
        summary:
          "A request a cascade's human stage sent to a person: pending, answered (the person's answers) or flagged (the key that made it, or a management key)",
        parameters: inPath('id'),
        responses: {
          '200': json(data({ type: 'object' }), 'Where the review stands'),
          ...errors('401', '404', '500'),
        },
      },
    },
  };
}

/** The security scheme and every schema the paths refer to, from the zod schemas that validate them. */
function components(): JsonSchema {
  return {
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API key>' } },
    schemas: {
      DecisionsRequest: jsonSchema(DecisionsRequestSchema, 'input'),
      DecisionsResponse: jsonSchema(DecisionsResponseSchema, 'output'),
      ModelWithEndpoints: jsonSchema(ModelWithEndpointsSchema, 'output'),
      ModelsList: jsonSchema(ModelsListSchema, 'output'),
      ZdrEndpoint: jsonSchema(ZdrEndpointSchema, 'output'),
      ApiKey: jsonSchema(ApiKeyInfoSchema, 'output'),
      ApiKeyCreate: jsonSchema(ApiKeyCreateInputSchema, 'input'),
      ApiKeyLimits: jsonSchema(ApiKeyLimitsInputSchema, 'input'),
      AuditPage: jsonSchema(AuditPageSchema, 'output'),
      CaptureRule: jsonSchema(CaptureRuleSchema, 'output'),
      CaptureRuleInput: jsonSchema(CaptureRuleInputSchema, 'input'),
      ErrorEnvelope: jsonSchema(ErrorEnvelopeSchema, 'output'),
      OpenAiDecisionRequest: jsonSchema(OpenAiDecisionRequestSchema, 'input'),
      OpenAiDecision: jsonSchema(OpenAiDecisionSchema, 'output'),
      OpenAiError: jsonSchema(OpenAiErrorBodySchema, 'output'),
      GatewayDecisionRequest: jsonSchema(GatewayDecisionRequestSchema, 'input'),
      GatewayDecision: jsonSchema(GatewayDecisionResponseSchema, 'output'),
      GatewayError: jsonSchema(GatewayErrorBodySchema, 'output'),
    },
  };
}
