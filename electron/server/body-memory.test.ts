import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { isGatewayError } from '../core';
import { readIncomingText } from './body';
import { BodyMemory } from './body-memory';

const settled = async <T>(promise: Promise<T>): Promise<boolean> => {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((r) => setTimeout(r, 20));
  return done;
};

describe('the body memory', () => {
  it('lets in what fits at once, and the next when room is given back', async () => {
    const memory = new BodyMemory(1000);
    const first = await memory.reserve(600);
    const second = memory.reserve(600);
    expect(await settled(second)).toBe(false);
    expect(memory.heldBytes).toBe(600);
    first();
    await second;
    expect(memory.heldBytes).toBe(600);
  });

  it('keeps the order bodies came in: a small one does not pass a large one waiting', async () => {
    const memory = new BodyMemory(1000);
    const held = await memory.reserve(500);
    const large = memory.reserve(950);
    const small = memory.reserve(100);
    expect(await settled(small)).toBe(false);
    held();
    const giveLarge = await large;
    expect(await settled(small)).toBe(false);
    giveLarge();
    await small;
    expect(memory.heldBytes).toBe(100);
  });

  it('lets a body larger than the whole budget in alone', async () => {
    const memory = new BodyMemory(1000);
    const huge = await memory.reserve(5000);
    const after = memory.reserve(10);
    expect(await settled(after)).toBe(false);
    huge();
    (await after)();
    expect(memory.heldBytes).toBe(0);
  });

  it('gives a 503 with Retry-After to a body that waited too long, and lets in the one behind it', async () => {
    const memory = new BodyMemory(1000, 50);
    const held = await memory.reserve(800);
    const waiting = memory.reserve(900).catch((error: unknown) => error);
    // Fits beside the 800 held, but waits behind the 900 until that one gives up.
    const behind = memory.reserve(150);
    const error = await waiting;
    expect(isGatewayError(error) && error.kind).toBe('unavailable');
    expect((error as Error).message).toMatch(/--body-memory/);
    expect(isGatewayError(error) && error.headers).toEqual({ 'retry-after': '5' });
    (await behind)();
    held();
    expect(memory.heldBytes).toBe(0);
  });

  it('counts a release once, however often it is called', async () => {
    const memory = new BodyMemory(1000);
    const release = await memory.reserve(400);
    await memory.reserve(300);
    release();
    release();
    expect(memory.heldBytes).toBe(300);
  });
});

/**
 * A real server whose answers wait until the test ends them: a large body is read only once the
 * bodies of the answers still open leave room for it.
 */
describe('reading large bodies within the body memory', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  async function start(memory: BodyMemory) {
    const read: { length: number; first: string; res: ServerResponse }[] = [];
    server = createServer((req, res) => {
      readIncomingText(req, 1_000_000, { memory, until: res }).then(
        (text) => read.push({ length: text.length, first: text.charAt(0), res }),
        (error: Error) => res.writeHead(503).end(error.message),
      );
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}/`, read };
  }
  const until = async (check: () => boolean) => {
    for (let i = 0; i < 200 && !check(); i += 1) await new Promise((r) => setTimeout(r, 10));
    expect(check()).toBe(true);
  };

  it('reads a second declared body only when the first answer is done', async () => {
    const memory = new BodyMemory(300_000);
    const { url, read } = await start(memory);
    const a = fetch(url, { method: 'POST', body: 'a'.repeat(200_000) });
    await until(() => read.length === 1);
    const b = fetch(url, { method: 'POST', body: 'b'.repeat(200_000) });
    await new Promise((r) => setTimeout(r, 100));
    expect(read).toHaveLength(1);
    expect(memory.heldBytes).toBe(200_000);
    read[0]!.res.end('done');
    expect((await a).status).toBe(200);
    await until(() => read.length === 2);
    expect(read[1]!.length).toBe(200_000);
    read[1]!.res.end('done');
    expect((await b).status).toBe(200);
    await until(() => memory.heldBytes === 0);
  });

  it('holds a chunked body, once it grows large, as the body limit or the budget', async () => {
    const memory = new BodyMemory(300_000);
    const { url, read } = await start(memory);
    const chunked = (letter: string) =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < 4; i += 1) controller.enqueue(Buffer.from(letter.repeat(50_000)));
          controller.close();
        },
      });
    const a = fetch(url, { method: 'POST', body: chunked('a'), duplex: 'half' } as RequestInit);
    await until(() => read.length === 1);
    // The whole budget: less than the body limit (1,000,000).
    expect(memory.heldBytes).toBe(300_000);
    const small = fetch(url, { method: 'POST', body: 'small' });
    await until(() => read.length === 2);
    expect(read[1]!.length).toBe(5);
    read[1]!.res.end();
    read[0]!.res.end();
    await Promise.all([a, small]);
    await until(() => memory.heldBytes === 0);
  });

  it('gives the room back at once to a caller that went away while it waited', async () => {
    const memory = new BodyMemory(300_000);
    const { url, read } = await start(memory);
    const a = fetch(url, { method: 'POST', body: 'a'.repeat(200_000) });
    await until(() => read.length === 1);
    const gone = new AbortController();
    const b = fetch(url, { method: 'POST', body: 'b'.repeat(200_000), signal: gone.signal }).catch(() => 'aborted');
    await new Promise((r) => setTimeout(r, 100));
    gone.abort();
    expect(await b).toBe('aborted');
    read[0]!.res.end('done');
    expect((await a).status).toBe(200);
    // B is let in when A is done and gives the room back once its answer is closed (its caller gone).
    await until(() => memory.heldBytes === 0);
    const c = fetch(url, { method: 'POST', body: 'c'.repeat(200_000) });
    await until(() => read.some((r) => r.first === 'c'));
    for (const r of read.slice(1)) r.res.end();
    expect((await c).status).toBe(200);
    await until(() => memory.heldBytes === 0);
  });

  it('gives the room back when the caller goes away before its answer', async () => {
    const memory = new BodyMemory(300_000);
    const { url, read } = await start(memory);
    const gone = new AbortController();
    const a = fetch(url, { method: 'POST', body: 'a'.repeat(200_000), signal: gone.signal }).catch(() => 'aborted');
    await until(() => read.length === 1);
    gone.abort();
    expect(await a).toBe('aborted');
    await until(() => memory.heldBytes === 0);
  });
});
