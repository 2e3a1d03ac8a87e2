import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatch } from '../core';
import { jpegWithOrientation } from '../test-support/images';
import { tempDir } from '../test-support/temp-core';
import { startServer, type RunningServer } from './start-server';

const PROTO = '"__proto__" cannot be used as a name here';

/**
 * Careless or hostile input, through the real server on a socket: every field it does not know is
 * refused naming it, `__proto__` is refused wherever a caller names a key, and each message names
 * the caller's own field.
 */
describe('strict input', () => {
  let server: RunningServer;
  let management: string;
  let standard: string;
  const dirs = [tempDir(), tempDir()];
  beforeAll(async () => {
    server = await startServer({
      port: 0,
      host: '127.0.0.1',
      dataDir: dirs[0]!.path,
      rendererDir: dirs[1]!.path,
      version: 'test',
      overrideGlobalObjects: false,
      sandbox: { seed: 2, failures: false, timeScale: 0 },
    });
    await server.core.handlers['settings.update']({ sandbox: 'on' });
    management = (await server.core.apiKeys.create('admin', 'management')).key;
    standard = (await server.core.apiKeys.create('caller', 'standard')).key;
  });
  afterAll(async () => {
    await server.close();
    for (const d of dirs) d.cleanup();
  });

  /** Sends text as it is: an object literal would turn "__proto__" into a prototype, not a key. */
  const send = async (method: string, path: string, text: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${path.includes('/keys') ? management : standard}`, 'content-type': 'application/json', ...headers },
      body: text,
    });
    const body = (await response.json()) as { error?: { message: string }; data?: unknown; answers?: unknown };
    return { status: response.status, body, message: body.error?.message ?? '' };
  };
  const keyCount = async () => (await server.core.apiKeys.list()).length;

  it('a misspelt key field is refused naming it and the field it was meant as, and no key is made', async () => {
    const before = await keyCount();
    const typo = await send('POST', '/api/v1/keys', '{"name":"typo","credit_limt":0.01,"rate_limit":5}');
    expect(typo.status).toBe(400);
    expect(typo.message).toBe(
      'Invalid key: credit_limt: unknown property "credit_limt" is not allowed here (did you mean "credit_limit"?); rate_limit: unknown property "rate_limit" is not allowed here',
    );
    const proto = await send('POST', '/api/v1/keys', '{"name":"p","__proto__":{"kind":"management"}}');
    expect(proto.status).toBe(400);
    expect(proto.message).toContain(`__proto__: ${PROTO}`);
    expect(await keyCount()).toBe(before);
    const id = (await server.core.apiKeys.list())[0]!.id;
    const limits = await send('PATCH', `/api/v1/keys/${id}`, '{"credit_limit":1,"rate_limit_rpm":null,"expires":"never"}');
    expect(limits.status).toBe(400);
    expect(limits.message).toBe('Invalid limits: expires: unknown property "expires" is not allowed here');
    expect((await server.core.apiKeys.list()).find((k) => k.id === id)!.credit_limit).toBeNull();
  });

  it('every inspector operation refuses a field it does not know, at any depth, and changes nothing', async () => {
    const before = server.core.settings.get();
    const actor = { kind: 'desktop' } as const;
    const result = await dispatch(server.core, 'settings.update', { theme: 'dark', routing: { only: [], ignroe: ['x'] } }, actor);
    expect(result).toMatchObject({ ok: false, error: { code: 400 } });
    expect((result as { error: { message: string } }).error.message).toBe(
      'Invalid input for settings.update: routing.ignroe: unknown property "ignroe" is not allowed here',
    );
    const created = await dispatch(server.core, 'apiKeys.create', { name: 'n', credit_limt: 1 }, actor);
    expect((created as { error: { message: string } }).error.message).toMatch(/credit_limt: unknown property .* \(did you mean "credit_limit"\?\)/);
    expect(server.core.settings.get()).toEqual(before);
  });

  it('the gateway protocol refuses __proto__ as a question or option name, naming it, and never answers without it', async () => {
    const headers = { 'ai-model-id': 'sandbox/decider' };
    const question = await send(
      'POST',
      '/api/ai/decision-model',
      '{"stateParts":[{"type":"text","text":"late"}],"questions":{"__proto__":{"type":"boolean","instructions":"Late?"},"mood":{"type":"boolean","instructions":"Calm?"}}}',
      headers,
    );
    expect(question.status).toBe(400);
    expect(question.message).toBe(`questions.__proto__: ${PROTO}: JavaScript reserves it, so it could not be kept; choose another name`);
    const option = await send(
      'POST',
      '/api/ai/decision-model',
      '{"stateParts":[{"type":"text","text":"late"}],"questions":{"mood":{"type":"choice","instructions":"Mood?","criteria":{"__proto__":"angry","calm":null}}}}',
      headers,
    );
    expect(option.status).toBe(400);
    expect(option.message).toContain(`questions.mood.criteria.__proto__: ${PROTO}`);
  });

  it('a __proto__ key anywhere in the content is refused naming where it is, on every route', async () => {
    const spec = await send(
      'POST',
      '/api/alpha/decisions',
      '{"model":"sandbox/baseline-text","state":{"order":{"__proto__":{"x":1}}},"questions":{"q":{"type":"noul","instructions":"Late?"}}}',
    );
    expect(spec.status).toBe(400);
    expect(spec.message).toContain(`state.order.__proto__: ${PROTO}`);
    const openai = await send(
      'POST',
      '/api/v1/decisions',
      '{"model":"sandbox/baseline-text","input":[{"role":"user","content":[{"type":"input_json","data":{"__proto__":{"a":1}}}]}],"questions":[{"type":"predicate","name":"p","instructions":"x"}]}',
    );
    expect(openai.status).toBe(400);
    expect(openai.message).toContain(`input[0].content[0].data.__proto__: ${PROTO}`);
  });

  it("a choice whose value is __proto__ is a value like any other in OpenAI's shape: answered, with its probability", async () => {
    const answer = await send(
      'POST',
      '/api/v1/decisions',
      '{"model":"sandbox/baseline-text","input":"it is odd","questions":[{"type":"choice","name":"c","instructions":"Which?","choices":[{"value":"__proto__"},{"value":"plain"}]}]}',
    );
    expect(answer.status).toBe(200);
    const c = (answer.body.answers as { probabilities: { value: string }[] }[])[0]!;
    expect(c.probabilities.map((p) => p.value)).toEqual(['__proto__', 'plain']);
  });

  it("messages name the field the caller got wrong, in the caller's words", async () => {
    for (const [text, kind] of [
      ['null', 'null'],
      ['[]', 'an array'],
      ['123', 'a number'],
    ] as const) {
      const answer = await send('POST', '/api/v1/decisions', text);
      expect(answer.status).toBe(400);
      expect(answer.message).toBe(
        `The request body must be a JSON object (got ${kind}): OpenAI's Decisions request (model, input, questions) or System One's (model, state, questions)`,
      );
    }
    const empty = await send(
      'POST',
      '/api/alpha/decisions',
      '{"model":"sandbox/baseline-text","state":"x","questions":{"":{"type":"noul","instructions":"x"}}}',
    );
    expect(empty.message).toContain('question names must not be empty');
    const jpeg = jpegWithOrientation(8, 8, { x: 1, y: 1, w: 2, h: 2 }, 1);
    const asPng = `data:image/png;base64,${jpeg.slice(jpeg.indexOf(',') + 1)}`;
    const openai = await send(
      'POST',
      '/api/v1/decisions',
      JSON.stringify({
        model: 'sandbox/baseline-vision',
        input: [
          {
            role: 'user',
            content: [
              { type: 'input_text', text: 'look' },
              { type: 'input_image', image_url: asPng },
            ],
          },
        ],
        questions: [{ type: 'predicate', name: 'p', instructions: 'x' }],
      }),
    );
    expect(openai.message).toBe('input[0].content[1].image_url: the data is a JPEG image, not PNG as it is declared; declare it as image/jpeg');
    const gateway = await send(
      'POST',
      '/api/ai/decision-model',
      JSON.stringify({
        stateParts: [{ type: 'file', mediaType: 'image/png', data: { type: 'data', data: jpeg.slice(jpeg.indexOf(',') + 1) } }],
        questions: { p: { type: 'boolean', instructions: 'x' } },
      }),
      { 'ai-model-id': 'sandbox/baseline-vision' },
    );
    expect(gateway.message).toBe('stateParts[0].data.data: the data is a JPEG image, not PNG as it is declared; declare it as image/jpeg');
  });

  it('a byte order mark before the JSON is read past', async () => {
    const answer = await send(
      'POST',
      '/api/alpha/decisions',
      '\ufeff{"model":"sandbox/baseline-text","state":"x","questions":{"q":{"type":"noul","instructions":"Late?"}}}',
    );
    expect(answer.status).toBe(200);
  });

  it('a cascade naming a model nobody serves is a 400 naming it, not a silent "never escalate"', async () => {
    const cascade = await send(
      'POST',
      '/api/alpha/decisions',
      JSON.stringify({
        model: 'sandbox/baseline-text',
        state: 'x',
        questions: { q: { type: 'noul', instructions: 'Late?' } },
        cascade: { model: 'sandbox/no-such-model', when: { confidenceBelow: 0.9 } },
      }),
    );
    expect(cascade.status).toBe(400);
    expect(cascade.message).toBe('cascade.model: no model "sandbox/no-such-model" is known here (GET /api/v1/models lists them)');
    const models = await send(
      'POST',
      '/api/ai/decision-model',
      JSON.stringify({
        stateParts: [{ type: 'text', text: 'x' }],
        questions: { q: { type: 'boolean', instructions: 'Late?' } },
        providerOptions: { gateway: { models: ['sandbox/baseline-text', 'sandbox/typo'] } },
      }),
      { 'ai-model-id': 'sandbox/decider' },
    );
    expect(models.status).toBe(400);
    expect(models.message).toBe('providerOptions.gateway.models[1]: no model "sandbox/typo" is known here (GET /api/v1/models lists them)');
  });
});
