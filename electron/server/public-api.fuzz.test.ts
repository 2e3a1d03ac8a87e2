import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../core';
import { tempDir } from '../test-support/temp-core';
import { startServer, type RunningServer } from './start-server';

const MODEL = 'sandbox/baseline-text';
const PROTO_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__', 'prototype', 'then'];

/**
 * The public API under hostile input, through the real server on a socket: whatever arrives, the
 * answer is never a 5xx, every error is in the envelope, and nothing the caller sent is blamed on a
 * provider (no endpoint is paused, no traffic moves).
 */
describe('public API fuzz', () => {
  let server: RunningServer;
  let key: string;
  const dirs = [tempDir(), tempDir()];
  beforeAll(async () => {
    server = await startServer({
      port: 0,
      host: '127.0.0.1',
      dataDir: dirs[0]!.path,
      rendererDir: dirs[1]!.path,
      version: 'test',
      overrideGlobalObjects: false,
      sandbox: { seed: 7, failures: false, timeScale: 0 },
      timeouts: { deadlineMs: 5_000, attemptMs: 2_000 },
    });
    await server.core.handlers['settings.update']({ sandbox: 'on' });
    key = (await server.core.apiKeys.create('fuzz', 'standard')).key;
  });
  afterAll(async () => {
    await server.close();
    for (const d of dirs) d.cleanup();
  });

  const post = async (text: string) => {
    const response = await fetch(`${server.url}/api/alpha/decisions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: text,
    });
    const body = (await response.json()) as Record<string, unknown>;
    expect(response.status, JSON.stringify(body).slice(0, 300)).toBeLessThan(500);
    if (response.status !== 200) expect(body).toMatchObject({ error: { code: response.status, message: expect.any(String) } });
    return { status: response.status, body };
  };
  const nested = (depth: number, leaf: string) => `${'['.repeat(depth)}${leaf}${']'.repeat(depth)}`;

  it('nesting up to 10,000 levels anywhere is a 400 beyond the limit and answered within it', async () => {
    // Where the nested value sits, and how deep that place already is (the body's own levels).
    const places: { wrap: (v: string) => string; base: number }[] = [
      { wrap: (v) => `{"model":"${MODEL}","state":"x","questions":{"q":{"type":"noul","instructions":${v}}}}`, base: 3 },
      { wrap: (v) => `{"model":"${MODEL}","state":"x","questions":{"q":{"type":"noul","instructions":"i","criteria":{"true":${v},"false":"no"}}}}`, base: 4 },
      {
        wrap: (v) =>
          `{"model":"${MODEL}","state":"x","questions":{"q":{"type":"noul","instructions":"i"}},"provider":{"options":{"sandbox-swift":{"x":${v}}}}}`,
        base: 4,
      },
      { wrap: (v) => `{"model":"${MODEL}","state":${v},"questions":{"q":{"type":"noul","instructions":"i"}}}`, base: 1 },
      { wrap: (v) => `{"model":"${MODEL}","state":"x","questions":{"q":{"type":"noul","instructions":"i"}},"trace":{"custom":${v}}}`, base: 2 },
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: places.length - 1 }),
        fc.oneof(fc.integer({ min: 1, max: 80 }), fc.integer({ min: 80, max: 10_000 })),
        async (place, depth) => {
          const { wrap, base } = places[place]!;
          const { status, body } = await post(wrap(nested(depth, '"deep"')));
          if (base + depth > MAX_JSON_DEPTH) {
            expect(status).toBe(400);
            expect((body as { error: { message: string } }).error.message).toContain(`deeper than ${MAX_JSON_DEPTH} levels`);
          } else {
            expect([200, 400]).toContain(status);
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('prototype names and any unicode are names like others; __proto__ is refused with a reason, never dropped', async () => {
    const name = fc.oneof(fc.constantFrom(...PROTO_NAMES), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }));
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(name, { minLength: 1, maxLength: 3 }),
        fc.uniqueArray(name, { minLength: 2, maxLength: 4 }),
        fc.string({ unit: 'grapheme', maxLength: 40 }),
        async (names, options, state) => {
          // Built as text: an object literal would turn "__proto__" into a prototype, not a key.
          const criteria = `{${options.map((o) => `${JSON.stringify(o)}:${JSON.stringify(`means ${o}`)}`).join(',')}}`;
          const questions = names.map(
            (n, i) =>
              `${JSON.stringify(n)}:${i % 2 === 0 ? `{"type":"choice","instructions":"Which?","criteria":${criteria}}` : '{"type":"noul","instructions":"Is it?"}'}`,
          );
          const { status, body } = await post(`{"model":"${MODEL}","state":${JSON.stringify(state || 'x')},"questions":{${questions.join(',')}}}`);
          const hasProto = names.includes('__proto__') || (options.includes('__proto__') && names.length > 0);
          if (hasProto) {
            expect(status).toBe(400);
            expect((body as { error: { message: string } }).error.message).toContain('"__proto__" cannot be used as a name');
            return;
          }
          expect(status).toBe(200);
          const answers = body['answers'] as Record<string, { type: string; choice?: string; probabilities?: Record<string, number> }>;
          expect(Object.keys(answers).sort()).toEqual([...names].sort());
          names.forEach((n, i) => {
            const answer = Object.getOwnPropertyDescriptor(answers, n)!.value as (typeof answers)[string];
            if (i % 2 === 0) {
              expect(answer.type).toBe('choice');
              expect(options).toContain(answer.choice);
              expect(Object.keys(answer.probabilities!).sort()).toEqual([...options].sort());
            } else expect(answer.type).toBe('noul');
          });
        },
      ),
      { numRuns: 40 },
    );
  });

  it('any JSON body on any public route is answered with a 2xx or a 4xx in the envelope, never a 5xx', async () => {
    const management = (await server.core.apiKeys.create('fuzz admin', 'management')).key;
    const target = (await server.core.apiKeys.create('fuzz target', 'standard')).info.id;
    const valid: Record<string, unknown> = {
      '/api/alpha/decisions': { model: MODEL, state: 'The parcel came late', questions: { late: { type: 'noul', instructions: 'Late?' } } },
      '/api/v1/systemone': { model: MODEL, state: 'The parcel came late', questions: { late: { type: 'noul', instructions: 'Late?' } } },
      '/api/v1/decisions': { model: MODEL, input: 'The parcel came late', questions: [{ type: 'predicate', name: 'late', instructions: 'Late?' }] },
      '/api/ai/decision-model': {
        stateParts: [{ type: 'text', text: 'The parcel came late' }],
        questions: { late: { type: 'boolean', instructions: 'Late?' } },
      },
      '/api/v1/keys': { name: 'made by the fuzz', credit_limit: 1, rate_limit_rpm: 60 },
      [`/api/v1/keys/${target}`]: { credit_limit: 1, rate_limit_rpm: null },
    };
    const routes = Object.keys(valid);
    // A valid body with one field (at any depth) replaced by any JSON, or a field added, or any JSON at all.
    const mutated = (route: string) =>
      fc.tuple(fc.jsonValue(), fc.nat(), fc.string({ maxLength: 8 })).map(([value, at, name]) => {
        const body = structuredClone(valid[route]) as Record<string, unknown>;
        const places: [Record<string, unknown>, string][] = [];
        const walk = (node: unknown) => {
          if (node === null || typeof node !== 'object') return;
          for (const [k, v] of Object.entries(node)) {
            places.push([node as Record<string, unknown>, k]);
            walk(v);
          }
        };
        walk(body);
        const [parent, key] = places[at % places.length]!;
        if (at % 3 === 0) parent[name || 'extra'] = value;
        else parent[key] = value;
        return body;
      });
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes).chain((route) => fc.tuple(fc.constant(route), fc.oneof(mutated(route), fc.jsonValue()))),
        async ([route, body]) => {
          const management_route = route.startsWith('/api/v1/keys');
          const response = await fetch(`${server.url}${route}`, {
            method: route.startsWith('/api/v1/keys/') ? 'PATCH' : 'POST',
            headers: {
              authorization: `Bearer ${management_route ? management : key}`,
              'content-type': 'application/json',
              ...(route === '/api/ai/decision-model' ? { 'ai-model-id': MODEL } : {}),
            },
            body: JSON.stringify(body),
          });
          const text = await response.text();
          expect(response.status, `${route} ${JSON.stringify(body).slice(0, 200)}: ${text.slice(0, 300)}`).toBeLessThan(500);
          if (response.status >= 400) expect(JSON.parse(text)).toMatchObject({ error: { message: expect.any(String) } });
        },
      ),
      { numRuns: 300 },
    );
  }, 120_000);

  it('no endpoint was paused or marked failing by any of it', () => {
    for (const endpoint of server.core.catalog.endpoints()) {
      const health = server.core.listings.view(endpoint).health;
      expect(health, endpoint.id).toMatchObject({ paused: false, lastFailureAt: null });
    }
  });
});
