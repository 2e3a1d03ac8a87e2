import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readIncomingJson } from './body';
import { BodyBuffers, bodyBuffers } from './body-buffers';

describe('BodyBuffers', () => {
  it('uses a buffer given back for a body of about its size, not for one twice smaller or larger than it', () => {
    const buffers = new BodyBuffers(4_000_000);
    const first = buffers.take(1_000_000);
    expect(first.length).toBeGreaterThanOrEqual(1_000_000);
    buffers.give(first);
    expect(buffers.heldBytes).toBe(first.length);
    expect(buffers.take(300_000)).not.toBe(first);
    expect(buffers.take(first.length + 1)).not.toBe(first);
    expect(buffers.take(900_000)).toBe(first);
    expect(buffers.heldBytes).toBe(0);
  });

  it('keeps no more than its bound', () => {
    const buffers = new BodyBuffers(3_000_000);
    const taken = [buffers.take(1_000_000), buffers.take(1_000_000), buffers.take(1_000_000)];
    for (const b of taken) buffers.give(b);
    expect(buffers.heldBytes).toBeLessThanOrEqual(3_000_000);
    expect(buffers.heldBytes).toBe(2 * taken[0]!.length);
  });
});

describe('large JSON bodies read into buffers used again', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer((req, res) => {
      readIncomingJson(req, 10_000_000, undefined, 'the test body').then(
        (value) => res.end(JSON.stringify({ ok: true, value })),
        (error: Error) => res.end(JSON.stringify({ ok: false, error: error.message })),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const post = (body: string) =>
    new Promise<{ ok: boolean; value?: unknown; error?: string }>((resolve, reject) => {
      const req = request({ port, host: '127.0.0.1', method: 'POST', headers: { 'content-length': Buffer.byteLength(body) } }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => resolve(JSON.parse(text) as { ok: boolean; value?: unknown; error?: string }));
      });
      req.on('error', reject);
      req.end(body);
    });

  it('each body is read as sent, one after another and side by side, a shorter one after a longer one included', async () => {
    const bodies = [900_000, 1_000_000, 700_000, 1_000_000, 950_000].map((n, i) => ({
      n: i,
      image: `data:image/png;base64,${randomBytes(n).toString('base64')}`,
      text: `body ${i} ${'é'.repeat(i * 1000)}`,
    }));
    for (const body of bodies) expect(await post(JSON.stringify(body))).toEqual({ ok: true, value: body });
    expect(bodyBuffers.heldBytes).toBeGreaterThan(0);
    const together = await Promise.all(bodies.map((body) => post(JSON.stringify(body))));
    expect(together).toEqual(bodies.map((value) => ({ ok: true, value })));
    // A malformed body after them is named as such, not read with a former body's bytes.
    const broken = JSON.stringify(bodies[0]).slice(0, -1);
    expect(await post(broken)).toMatchObject({ ok: false, error: expect.stringContaining('Malformed JSON in the request body') as unknown });
  });
});
