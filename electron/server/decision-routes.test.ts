import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngWithRect } from '../test-support/images';
import { tempDir } from '../test-support/temp-core';
import { startServer, type RunningServer } from './start-server';

const TLS = join(import.meta.dirname, '..', 'test-support', 'fixtures', 'tls');
const cert = readFileSync(join(TLS, 'images-test.crt'), 'utf8');

/** What the Decisions routes take besides their questions: OpenRouter's `assets`, image URLs, and nothing the spec does not define. */
describe('assets, image URLs and unknown fields on the Decisions routes', () => {
  let server: RunningServer;
  let images: Server;
  let imagesUrl: string;
  let key: string;
  const dirs = [tempDir(), tempDir()];
  const card = pngWithRect(80, 40, { x: 20, y: 10, w: 40, h: 20 });
  const base64 = card.split(',')[1]!;

  beforeAll(async () => {
    images = createServer({ cert, key: readFileSync(join(TLS, 'images-test.key'), 'utf8') }, (_req, res) =>
      res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from(base64, 'base64')),
    );
    await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
    imagesUrl = `https://images.test:${(images.address() as AddressInfo).port}/card.png`;
    server = await startServer({
      port: 0,
      host: '127.0.0.1',
      dataDir: dirs[0]!.path,
      rendererDir: dirs[1]!.path,
      version: 'test',
      overrideGlobalObjects: false,
      sandbox: { seed: 4, failures: false, timeScale: 0.02 },
      // The image server is on loopback: only this test's own policy lets it through.
      imageFetch: { lookup: async () => ['127.0.0.1'], allowAddress: () => true, ca: cert },
    });
    await server.core.handlers['settings.update']({ sandbox: 'on' });
    key = (await server.core.apiKeys.create('routes', 'standard')).key;
  }, 30_000);
  afterAll(async () => {
    await server.close();
    await new Promise<void>((resolve) => images.close(() => resolve()));
    for (const d of dirs) d.cleanup();
  });

  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- replies of several shapes, read field by field below
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };
  const expected = { top: 0.25, bottom: 0.75, left: 0.25, right: 0.75 };

  for (const [path, model] of [
    ['/api/alpha/decisions', 'sandbox/baseline-vision'],
    ['/api/v1/systemone', 'sandbox/decider'],
    ['/api/alpha/decisions', 'sandbox/decider'],
  ] as const) {
    it(`${path} on ${model}: a box question referring to an asset finds its image`, async () => {
      const other = pngWithRect(80, 40, { x: 0, y: 0, w: 8, h: 8 }).split(',')[1]!;
      const { status, body } = await post(path, {
        model,
        state: 'Two photos of a desk.',
        assets: { other: { format: 'png', data_base64: other }, photo: { type: 'image', format: 'png', data_base64: base64 } },
        questions: { card: { type: 'box', instructions: 'the card in `photo`' } },
      });
      expect(status, JSON.stringify(body)).toBe(200);
      for (const [edge, value] of Object.entries(expected)) expect(body['answers'].card.box[edge]).toBeCloseTo(value, 1);
    });
  }

  it('an asset is checked as an inline image is, and any field the spec does not define is refused by name', async () => {
    const ask = (extra: Record<string, unknown>) =>
      post('/api/alpha/decisions', { model: 'sandbox/baseline-vision', state: 'x', questions: { card: { type: 'box', instructions: 'the card' } }, ...extra });
    expect((await ask({ assets: { photo: { format: 'png', data_base64: card } } })).body['error'].message).toBe(
      'assets.photo.data_base64: standard base64 with no data: prefix (the format goes in assets.photo.format)',
    );
    expect((await ask({ assets: { photo: { format: 'jpeg', data_base64: base64 } } })).body['error'].message).toBe(
      'assets.photo.data_base64: the data is not a JPEG image, as assets.photo.format says',
    );
    expect((await ask({ assets: { photo: { format: 'gif', data_base64: base64 } } })).body['error'].message).toContain(
      'assets.photo.format: expected format png, jpeg or jpg',
    );
    const unknown = await ask({ images: [card] });
    expect(unknown.status).toBe(400);
    expect(unknown.body['error'].message).toBe('Invalid DecisionsRequest: images: unknown property "images" is not allowed here');
  });

  it('the gateway protocol has no box: a box question is a 400 in its error shape, naming the routes that answer it', async () => {
    const response = await fetch(`${server.url}/api/ai/decision-model`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'ai-model-id': 'sandbox/baseline-vision' },
      body: JSON.stringify({
        stateParts: [{ type: 'file', mediaType: 'image/png', data: { type: 'data', data: base64 } }],
        questions: { card: { type: 'box', instructions: 'the card' } },
      }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: {
        message: 'questions.card: the gateway protocol has no box answer; box questions are answered at POST /api/v1/systemone and POST /api/alpha/decisions',
        type: 'invalid_request_error',
        code: 400,
      },
    });
  });

  it("an https image URL in OpenAI's input is refused unless Settings say fetch, and then fetched", async () => {
    const request = {
      model: 'sandbox/decider',
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'A card.' },
            { type: 'input_image', image_url: imagesUrl },
          ],
        },
      ],
      questions: [{ type: 'predicate', name: 'card', instructions: 'Is there a card?' }],
    };
    const refused = await post('/api/v1/decisions', request);
    expect(refused.status).toBe(400);
    expect(refused.body['error']).toMatchObject({ type: 'invalid_request_error', param: 'input[0].content[1].image_url' });
    expect(refused.body['error'].message).toContain('image URLs are not fetched by this server (Settings: image URLs)');
    await server.core.handlers['settings.update']({ image_urls: 'fetch' });
    try {
      const fetched = await post('/api/v1/decisions', request);
      expect(fetched.status, JSON.stringify(fetched.body)).toBe(200);
      expect(fetched.body['answers'][0]).toMatchObject({ type: 'predicate', name: 'card' });
    } finally {
      await server.core.handlers['settings.update']({ image_urls: 'refuse' });
    }
  });
});
