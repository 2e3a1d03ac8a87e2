import { connect, type Socket } from 'node:net';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/temp-core';
import { startServer, type RunningServer } from './start-server';

/** A raw connection to the server, with everything it received and when it closed. */
function open(port: number, localAddress = '127.0.0.1'): Promise<{ socket: Socket; received: () => string; closed: Promise<number> }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect({ port, host: '127.0.0.1', localAddress });
    let text = '';
    socket.on('data', (d) => (text += String(d)));
    socket.on('error', () => undefined);
    const closed = new Promise<number>((done) => socket.on('close', () => done(Date.now() - started)));
    socket.once('connect', () => resolve({ socket, received: () => text, closed }));
    socket.once('error', reject);
  });
}

const health = (port: number, localAddress = '127.0.0.1'): Promise<number> =>
  new Promise((resolve, reject) => {
    const req = request({ port, host: '127.0.0.1', localAddress, path: '/healthz', agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });

describe('connections cannot be hoarded', () => {
  let server: RunningServer;
  let port: number;
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
      bodyLimitBytes: 1_000_000,
      connections: { headersTimeoutMs: 1000, bodyMinBytesPerSecond: 1024, maxConnections: 300, maxConnectionsPerAddress: 200 },
    });
    port = Number(new URL(server.url).port);
    key = (await server.core.apiKeys.create('conn', 'standard')).key;
  });
  afterAll(async () => {
    await server.close();
    for (const d of dirs) d.cleanup();
  });

  it('headers trickled in are cut with a 408 saying so, and the connection closes', async () => {
    const c = await open(port);
    c.socket.write('POST /api/alpha/decisions HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const tick = setInterval(() => c.socket.write('X-a: b\r\n'), 300);
    await c.closed;
    clearInterval(tick);
    expect(c.received()).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(c.received()).toContain('The request took too long to send its headers');
  });

  it('a request refused before its body is read (401) ends its connection, not after the body trickles in', async () => {
    const c = await open(port);
    c.socket.write('POST /api/alpha/decisions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000\r\n\r\n{');
    const tick = setInterval(() => c.socket.write('"'), 200);
    const after = await c.closed;
    clearInterval(tick);
    expect(c.received()).toMatch(/^HTTP\/1\.1 401 /);
    // Answered at once, then a moment for the client to read it; never the body's whole trickle.
    expect(after).toBeLessThan(10_000);
  });

  it('a body slower than the minimum rate is cut with a 408 naming the rate', async () => {
    const c = await open(port);
    c.socket.write(`POST /api/alpha/decisions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nContent-Length: 100000\r\n\r\n{`);
    const tick = setInterval(() => c.socket.write('"'), 200);
    await c.closed;
    clearInterval(tick);
    expect(c.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(c.received()).toContain('The request body arrived slower than 1024 bytes a second');
  }, 20_000);

  it('an oversized body gets its 413 every time, declared or chunked, never a reset', async () => {
    const body = Buffer.alloc(3_000_000, 0x20);
    const send = (chunked: boolean) =>
      new Promise<number>((resolve, reject) => {
        const req = request(
          {
            port,
            host: '127.0.0.1',
            method: 'POST',
            path: '/api/alpha/decisions',
            agent: false,
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...(chunked ? {} : { 'content-length': body.length }) },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        if (chunked) for (let i = 0; i < body.length; i += 65_536) req.write(body.subarray(i, i + 65_536));
        else req.write(body);
        req.end();
      });
    const statuses: number[] = [];
    for (let i = 0; i < 20; i += 1) statuses.push(await send(i % 2 === 0));
    expect(statuses).toEqual(Array(20).fill(413));
  }, 60_000);

  it('idle connections beyond the cap make room for a new client: 2,000 held open, health still answers', async () => {
    const idle: Awaited<ReturnType<typeof open>>[] = [];
    // From nine addresses (the per-address cap is 200), more than six times the server's cap.
    for (let i = 0; i < 2000; i += 1) idle.push(await open(port, `127.0.0.${2 + (i % 9)}`));
    expect(await health(port, '127.0.0.99')).toBe(200);
    for (const c of idle) c.socket.destroy();
  }, 60_000);

  it('one address beyond its cap is refused with a 503 saying why, while another gets in', async () => {
    const mine: Awaited<ReturnType<typeof open>>[] = [];
    for (let i = 0; i < 220; i += 1) mine.push(await open(port, '127.0.0.50'));
    const refused = mine.slice(200);
    await Promise.all(refused.map((c) => c.closed));
    expect(refused.every((c) => c.received().startsWith('HTTP/1.1 503 '))).toBe(true);
    expect(refused[0]!.received()).toContain('This server holds at most 200 connections from one address');
    expect(await health(port, '127.0.0.51')).toBe(200);
    for (const c of mine) c.socket.destroy();
  }, 60_000);
});
