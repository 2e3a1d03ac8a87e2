import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogFileSchema } from '../../shared/schemas/catalog';
import { ScriptedUpstream } from '../test-support/scripted-upstream';
import { tempDir } from '../test-support/temp-core';
import { createServerApp } from './app';
import { startServer, type RunningServer } from './start-server';

const BODY_LIMIT = 4096;

interface Seen {
  status: number;
  contentType: string | null;
  requestId: boolean;
  retryAfter: string | null;
  body: unknown;
}

/** Request ids, generation ids and key labels differ per call by design; everything else must match. */
const withoutIds = (text: string): unknown =>
  JSON.parse(
    text
      .replace(/"gen-[0-9a-f-]{36}"/g, '"gen-*"')
      .replace(/vd-[0-9a-f]{12}-…/g, 'vd-*-…')
      .replace(/request [0-9a-f-]{36}/g, 'request *')
      .replace(/"request_id":"[0-9a-f-]{36}"/g, '"request_id":"*"'),
  );

describe('the direct lane for POST /api/alpha/decisions answers exactly as the router does', () => {
  const dirs = [tempDir(), tempDir()];
  let server: RunningServer;
  let upstream: ScriptedUpstream;
  let routed: ReturnType<typeof createServerApp>;

  beforeAll(async () => {
    upstream = await new ScriptedUpstream().start();
    upstream.always({
      kind: 'respond',
      status: 200,
      headers: { 'content-type': 'application/json' },
      chunks: [
        JSON.stringify({
          id: 'gen-up',
          model: 'echo-1',
          answers: { late: { type: 'noul', noul: 0.75 } },
          usage: { input_tokens: 12, output_tokens: 1, cost: 0.00002 },
        }),
      ],
    });
    server = await startServer({
      port: 0,
      host: '127.0.0.1',
      dataDir: dirs[0]!.path,
      rendererDir: dirs[1]!.path,
      version: 'test',
      bodyLimitBytes: BODY_LIMIT,
      overrideGlobalObjects: false,
      sandbox: { seed: 1, failures: false },
    });
    await server.core.replaceCatalogFile(
      CatalogFileSchema.parse({
        version: 1,
        providers: [{ slug: 'echo', name: 'Echo', wire_format: 'decisions', base_url: `${upstream.url}/api/v1`, local: true }],
        models: [
          {
            id: 'echo/judge',
            name: 'Judge',
            created: 0,
            architecture: { input_modalities: ['text'], output_modalities: ['text'], modality: 'text->text', instruct_type: null, tokenizer: null },
          },
        ],
        endpoints: [{ model_id: 'echo/judge', provider: 'echo', upstream_model: 'echo-1', pricing: { prompt: '0.000001', completion: '0.000001' } }],
      }),
    );
    routed = createServerApp(server.core, { uiToken: 'unused-token-0123456789', rendererDir: dirs[1]!.path, bodyLimitBytes: BODY_LIMIT });
  });
  afterAll(async () => {
    await server.close();
    await upstream.close();
    for (const d of dirs) d.cleanup();
  });

  /** Over the socket: the lane takes it. */
  function viaLane(path: string, headers: Record<string, string>, body: string): Promise<Seen> {
    const url = new URL(server.url);
    return new Promise((resolve, reject) => {
      const req = httpRequest({ host: url.hostname, port: url.port, path, method: 'POST', headers }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            contentType: res.headers['content-type'] ?? null,
            requestId: typeof res.headers['x-request-id'] === 'string',
            retryAfter: (res.headers['retry-after'] as string | undefined) ?? null,
            body: withoutIds(text),
          }),
        );
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  /** In process, through the router's middleware and route. */
  async function viaRouter(path: string, headers: Record<string, string>, body: string): Promise<Seen> {
    const response = await routed.request(`http://${headers['host'] ?? '127.0.0.1'}${path}`, { method: 'POST', headers, body });
    return {
      status: response.status,
      contentType: response.headers.get('content-type'),
      requestId: response.headers.get('x-request-id') !== null,
      retryAfter: response.headers.get('retry-after'),
      body: withoutIds(await response.text()),
    };
  }

  const judge = JSON.stringify({ model: 'echo/judge', state: 'The parcel came late.', questions: { late: { type: 'noul', instructions: 'Was it late?' } } });
  const json = { 'content-type': 'application/json' };

  const cases: [
    string,
    (keys: () => { key: string; spent: string; limited: string }) => { path?: string; headers: Record<string, string>; body: string },
    number,
  ][] = [
    ['an answer', (k) => ({ headers: { ...json, authorization: `Bearer ${k().key}` }, body: judge }), 200],
    [
      'an answer, with a query string',
      (k) => ({ path: '/api/alpha/decisions?trace=1', headers: { ...json, authorization: `Bearer ${k().key}` }, body: judge }),
      200,
    ],
    ['no key', () => ({ headers: json, body: judge }), 401],
    ['a malformed Authorization header', () => ({ headers: { ...json, authorization: 'Basic abc' }, body: judge }), 401],
    ['an unknown key', () => ({ headers: { ...json, authorization: `Bearer vd-000000000000-${'x'.repeat(43)}` }, body: judge }), 401],
    ['a foreign Host (DNS rebinding)', (k) => ({ headers: { ...json, host: 'evil.example:80', authorization: `Bearer ${k().key}` }, body: judge }), 403],
    ['malformed JSON', (k) => ({ headers: { ...json, authorization: `Bearer ${k().key}` }, body: '{"model": ' }), 400],
    ['an empty body', (k) => ({ headers: { ...json, authorization: `Bearer ${k().key}` }, body: '' }), 400],
    [
      'a request that breaks the schema',
      (k) => ({
        headers: { ...json, authorization: `Bearer ${k().key}` },
        body: JSON.stringify({ model: 'echo/judge', state: 'x', questions: { q: { type: 'noul' } } }),
      }),
      400,
    ],
    ['a session id over the limit', (k) => ({ headers: { ...json, authorization: `Bearer ${k().key}`, 'x-session-id': 's'.repeat(300) }, body: judge }), 400],
    ['an unknown model', (k) => ({ headers: { ...json, authorization: `Bearer ${k().key}` }, body: judge.replace('echo/judge', 'echo/none') }), 404],
    [
      'a body over the limit',
      (k) => ({
        headers: { ...json, authorization: `Bearer ${k().key}` },
        body: JSON.stringify({ model: 'echo/judge', state: 'x'.repeat(BODY_LIMIT), questions: {} }),
      }),
      413,
    ],
    ['a key past its credit', (k) => ({ headers: { ...json, authorization: `Bearer ${k().spent}` }, body: judge }), 402],
    ['a key past its rate limit', (k) => ({ headers: { ...json, authorization: `Bearer ${k().limited}` }, body: judge }), 429],
  ];

  it.each(cases)('%s', async (_name, make, status) => {
    // Each way gets keys of its own, so that limits one spends do not change what the other sees.
    const keys = async () => {
      const spent = await server.core.apiKeys.create('spent', 'standard', { credit_limit: 0.01, rate_limit_rpm: null });
      void server.core.spend.charge(spent.info.id, 0.02);
      const limited = await server.core.apiKeys.create('limited', 'standard', { credit_limit: null, rate_limit_rpm: 1 });
      void server.core.admission.onRequest(limited.info.id, 'fill', false);
      return { key: (await server.core.apiKeys.create('caller', 'standard')).key, spent: spent.key, limited: limited.key };
    };
    const laneKeys = await keys();
    const routerKeys = await keys();
    const lane = make(() => laneKeys);
    const router = make(() => routerKeys);
    const path = lane.path ?? '/api/alpha/decisions';
    const [a, b] = [await viaLane(path, lane.headers, lane.body), await viaRouter(path, router.headers, router.body)];
    expect(a.status).toBe(status);
    expect(a.requestId).toBe(true);
    expect(a.contentType).toBe('application/json');
    if (status === 429) expect(a.retryAfter).toMatch(/^\d+$/);
    expect(a).toEqual(b);
  });
});
