import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv2020 from 'ajv/dist/2020';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/temp-core';
import { startServer, type RunningServer } from './start-server';

/** The OpenAPI document the server publishes: valid OpenAPI 3.1, and true of what the server sends. */
describe('GET /api/v1/openapi.json', () => {
  let server: RunningServer;
  let key: string;
  let doc: Record<string, unknown>;
  const dirs = [tempDir(), tempDir()];
  beforeAll(async () => {
    server = await startServer({
      port: 0,
      host: '127.0.0.1',
      dataDir: dirs[0]!.path,
      rendererDir: dirs[1]!.path,
      version: '1.2.3',
      overrideGlobalObjects: false,
      sandbox: { seed: 3, failures: false, timeScale: 0 },
    });
    await server.core.handlers['settings.update']({ sandbox: 'on' });
    key = (await server.core.apiKeys.create('openapi', 'management')).key;
    const response = await fetch(`${server.url}/api/v1/openapi.json`);
    expect(response.status).toBe(200);
    doc = (await response.json()) as Record<string, unknown>;
  });
  afterAll(async () => {
    await server.close();
    for (const d of dirs) d.cleanup();
  });

  it('is a valid OpenAPI 3.1 document (checked against the official schema), served without a key', async () => {
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc).toMatchObject({ openapi: '3.1.0', info: { version: '1.2.3' } });
    expect(Object.keys(doc['paths'] as object)).toEqual(
      expect.arrayContaining(['/api/alpha/decisions', '/api/v1/models/{author}/{slug}/endpoints', '/api/v1/endpoints/zdr']),
    );
  });

  it('describes what the server really sends: answers, listings, ZDR and errors validate against it', async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    for (const [name, schema] of Object.entries((doc['components'] as { schemas: Record<string, object> }).schemas))
      ajv.addSchema(schema, `#/components/schemas/${name}`);
    const check = (name: string, value: unknown) => {
      const validate = ajv.getSchema(`#/components/schemas/${name}`)!;
      expect(validate(value), `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
    };
    const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const request = {
      model: 'sandbox/baseline-text',
      state: 'The parcel came two days late.',
      questions: {
        late: { type: 'noul', instructions: 'Late?' },
        mood: { type: 'choice', instructions: 'Mood?', criteria: { calm: null, angry: 'shouting' } },
        level: { type: 'score', instructions: 'How bad?', criteria: ['fine', 'bad', 'awful'] },
      },
    };
    check('DecisionsRequest', request);
    const answered = await fetch(`${server.url}/api/alpha/decisions`, { method: 'POST', headers: auth, body: JSON.stringify(request) });
    expect(answered.status).toBe(200);
    check('DecisionsResponse', await answered.json());
    const listing = (await (await fetch(`${server.url}/api/v1/models/sandbox/baseline-text/endpoints`, { headers: auth })).json()) as { data: unknown };
    check('ModelWithEndpoints', listing.data);
    const zdr = (await (await fetch(`${server.url}/api/v1/endpoints/zdr`, { headers: auth })).json()) as { data: unknown[] };
    for (const endpoint of zdr.data) check('ZdrEndpoint', endpoint);
    const refused = await fetch(`${server.url}/api/alpha/decisions`, { method: 'POST', headers: auth, body: '{"model": 1}' });
    expect(refused.status).toBe(400);
    check('ErrorEnvelope', await refused.json());
  });

  it("describes the other Decisions shapes as the server sends them: OpenAI's, System One's, the AI SDK gateway's, and each one's errors", async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    for (const [name, schema] of Object.entries((doc['components'] as { schemas: Record<string, object> }).schemas))
      ajv.addSchema(schema, `#/components/schemas/${name}`);
    const check = (name: string, value: unknown) => {
      const validate = ajv.getSchema(`#/components/schemas/${name}`)!;
      expect(validate(value), `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
    };
    const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
      const response = await fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: await response.json() };
    };
    const openai = {
      model: 'sandbox/decider',
      input: 'The parcel came late.',
      questions: [
        { type: 'predicate', name: 'late', instructions: 'Late?' },
        { type: 'choice', instructions: 'Mood?', choices: [{ value: 'calm' }, { value: 'angry' }] },
        { type: 'score', instructions: 'How bad?', levels: [{ label: 'fine' }, { label: 'bad' }] },
      ],
    };
    check('OpenAiDecisionRequest', openai);
    const answered = await post('/api/v1/decisions', openai);
    expect(answered.status).toBe(200);
    check('OpenAiDecision', answered.body);
    const bad = await post('/api/v1/decisions', { ...openai, questions: [] });
    expect(bad.status).toBe(400);
    check('OpenAiError', bad.body);
    const systemOne = await post('/api/v1/systemone', { model: 'sandbox/decider', state: 'x', questions: { late: { type: 'noul', instructions: 'Late?' } } });
    expect(systemOne.status).toBe(200);
    check('DecisionsResponse', systemOne.body);
    const gateway = {
      stateParts: [{ type: 'text', text: 'The parcel came late.' }],
      questions: { late: { type: 'boolean', instructions: 'Late?' }, mood: { type: 'choice', instructions: 'Mood?', criteria: { calm: null, angry: null } } },
    };
    check('GatewayDecisionRequest', gateway);
    const decided = await post('/api/ai/decision-model', gateway, { 'ai-model-id': 'sandbox/baseline-text' });
    expect(decided.status).toBe(200);
    check('GatewayDecision', decided.body);
    const missing = await post('/api/ai/decision-model', gateway);
    expect(missing.status).toBe(400);
    check('GatewayError', missing.body);
  });

  it('a request the document calls invalid is one the server refuses', async () => {
    const ajv = new Ajv2020({ strict: false });
    const validate = ajv.compile((doc['components'] as { schemas: Record<string, object> }).schemas['DecisionsRequest']!);
    const bad = { model: 'sandbox/baseline-text', state: 'x', questions: { q: { type: 'score', instructions: 'x', criteria: [] } } };
    expect(validate(bad)).toBe(false);
    const response = await fetch(`${server.url}/api/alpha/decisions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: JSON.stringify(bad),
    });
    expect(response.status).toBe(400);
  });
});
