import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jpegWithOrientation, pngWithRect } from '../test-support/images';
import { tempDir } from '../test-support/temp-core';
import { startServer, type RunningServer } from './start-server';

/** A PNG that is only a header saying `width` × `height` (RGBA), with one empty data chunk: a few dozen bytes. */
function pngHeaderOnly(width: number, height: number): string {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'latin1');
    return Buffer.concat([head, data, Buffer.alloc(4)]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', Buffer.from([0x78, 0x9c, 3, 0, 0, 0, 0, 1])),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  return `data:image/png;base64,${png.toString('base64')}`;
}

/** A `side` × `side` JPEG with a dark square, stored so that EXIF orientation 6 shows it turned. */
async function rotatedJpeg(side: number): Promise<string> {
  const square = await sharp({ create: { width: side / 4, height: side / 4, channels: 3, background: '#202060' } })
    .png()
    .toBuffer();
  const jpeg = await sharp({ create: { width: side, height: side, channels: 3, background: '#f0f0f0' } })
    .composite([{ input: square, left: side / 8, top: side / 8 }])
    .withMetadata({ orientation: 6 })
    .jpeg({ quality: 80 })
    .toBuffer();
  return `data:image/jpeg;base64,${jpeg.toString('base64')}`;
}

/** Box images through the real server on a socket, answered by the simulated vision model. */
describe('images never stall the server', () => {
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
      sandbox: { seed: 3, failures: false, timeScale: 0 },
      timeouts: { deadlineMs: 60_000, attemptMs: 60_000 },
    });
    await server.core.handlers['settings.update']({ sandbox: 'on' });
    key = (await server.core.apiKeys.create('images', 'standard')).key;
  });
  afterAll(async () => {
    await server.close();
    for (const d of dirs) d.cleanup();
  });

  const boxRequest = (url: string) => ({
    model: 'sandbox/baseline-vision',
    state: ['Find the square.', { type: 'image_url', image_url: { url } }],
    questions: { square: { type: 'box', instructions: 'the dark square' } },
  });
  const ask = async (path: string, body: unknown) => {
    const response = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return {
      status: response.status,
      body: (await response.json()) as { error?: { message: string }; answers?: Record<string, unknown>; usage?: { cost: number } },
    };
  };
  const spent = async () => (await server.core.apiKeys.list()).find((k) => k.name === 'images')!.spent;
  /** Attempts made on every endpoint of the simulated vision model in the last day. */
  const visionAttempts = () =>
    server.core.catalog
      .endpoints()
      .filter((e) => e.model.id === 'sandbox/baseline-vision')
      .reduce((n, e) => n + server.core.metrics.figures(e.id, { fresh: true }).attempts1d, 0);

  it('the server answers /healthz while rotated JPEGs are being turned upright, and every one of them is answered', async () => {
    const image = await rotatedJpeg(3000);
    const finished: number[] = [];
    const inFlight = Array.from({ length: 8 }, () =>
      ask('/api/alpha/decisions', boxRequest(image)).then((answer) => {
        finished.push(Date.now());
        return answer;
      }),
    );
    // Sent once the image requests are being read; answered before the first of them is done.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const health = await fetch(`${server.url}/healthz`);
    const healthAt = Date.now();
    expect(health.status).toBe(200);
    const answers = await Promise.all(inFlight);
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    expect(healthAt).toBeLessThan(Math.min(...finished));
    // Stored 3000 square with the square at the top left; shown turned clockwise, it is at the top right.
    const box = answers[0]!.body.answers!['square'] as { box: { left: number; top: number } };
    expect(box.box.left).toBeGreaterThan(0.6);
    expect(box.box.top).toBeLessThan(0.2);
  }, 60_000);

  it('an image whose header says 20,000 × 20,000 is a 400 naming its size, on every route that takes images, and costs nothing', async () => {
    const huge = pngHeaderOnly(20000, 20000);
    const before = await spent();
    const message = 'the image is 20000 × 20000 pixels (400 megapixels); at most 40 megapixels are accepted';
    for (const path of ['/api/alpha/decisions', '/api/v1/systemone']) {
      const answer = await ask(path, boxRequest(huge));
      expect(answer.status).toBe(400);
      expect(answer.body.error!.message).toBe(`state[1].image_url.url: ${message}`);
    }
    const asAsset = await ask('/api/alpha/decisions', {
      ...boxRequest(huge),
      state: 'Find the square in `photo`.',
      assets: { photo: { format: 'png', data_base64: huge.slice(huge.indexOf(',') + 1) } },
    });
    expect(asAsset.status).toBe(400);
    expect(asAsset.body.error!.message).toBe(`assets.photo.data_base64: ${message}`);
    expect(await spent()).toBe(before);
  });

  it('a JPEG sent as data:image/png is a 400 naming the mismatch, before any provider is asked, and nothing is charged', async () => {
    const jpeg = jpegWithOrientation(40, 30, { x: 5, y: 5, w: 10, h: 10 }, 1);
    const mislabelled = `data:image/png;base64,${jpeg.slice(jpeg.indexOf(',') + 1)}`;
    const before = await spent();
    const attemptsBefore = visionAttempts();
    const answer = await ask('/api/alpha/decisions', boxRequest(mislabelled));
    expect(answer.status).toBe(400);
    expect(answer.body.error!.message).toBe('state[1].image_url.url: the data is a JPEG image, not PNG as it is declared; declare it as image/jpeg');
    expect(await spent()).toBe(before);
    expect(visionAttempts()).toBe(attemptsBefore);
  });

  it('a JPEG with any EXIF orientation is answered, and one over the pixel limit is a 400 naming it, never a 5xx', async () => {
    for (let o = 1; o <= 8; o += 1) {
      const answer = await ask('/api/alpha/decisions', boxRequest(jpegWithOrientation(120, 80, { x: 10, y: 10, w: 40, h: 20 }, o)));
      expect(answer.status, `orientation ${o}: ${JSON.stringify(answer.body)}`).toBe(200);
    }
    const big = await sharp({ create: { width: 8000, height: 8000, channels: 3, background: '#ffffff' } })
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toBuffer();
    const answer = await ask('/api/alpha/decisions', boxRequest(`data:image/jpeg;base64,${big.toString('base64')}`));
    expect(answer.status).toBe(400);
    expect(answer.body.error!.message).toMatch(/^state\[1\]\.image_url\.url: the image is 8000 × 8000 pixels \(64 megapixels\)/);
  });

  it('a PNG of the simulated model is found where it is', async () => {
    const answer = await ask('/api/alpha/decisions', boxRequest(pngWithRect(200, 100, { x: 20, y: 10, w: 60, h: 30 })));
    expect(answer.status).toBe(200);
    expect(answer.body.answers!['square']).toMatchObject({ type: 'box', box: { left: 0.1, top: 0.1, right: 0.4, bottom: 0.4 } });
  });
});
