import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/temp-core';
import { startServer, type RunningServer } from './start-server';

const LIMIT = 512 * 1024;

/** Sends a request over a raw socket, writing the whole body in pieces, and reads the whole answer. */
function rawRequest(port: number, head: string, body: Buffer, pieces = 64): Promise<{ response: string; writeError: string | null }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let response = '';
    let writeError: string | null = null;
    socket.on('data', (d) => (response += d.toString('latin1')));
    socket.on('error', (e: NodeJS.ErrnoException) => (writeError ??= e.code ?? e.message));
    socket.on('close', () => resolve({ response, writeError }));
    socket.once('connect', async () => {
      socket.write(head);
      const size = Math.ceil(body.length / pieces);
      for (let i = 0; i < body.length && !socket.destroyed; i += size) {
        if (!socket.write(body.subarray(i, i + size))) await new Promise((r) => socket.once('drain', r));
        await new Promise((r) => setImmediate(r));
      }
      if (!socket.destroyed) socket.end();
    });
  });
}

describe('bodies past the limit, and requests Node cannot parse', () => {
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
      overrideGlobalObjects: true,
      bodyLimitBytes: LIMIT,
    });
    port = Number(new URL(server.url).port);
    key = (await server.core.apiKeys.create('upload', 'management')).key;
  });
  afterAll(async () => {
    await server.close();
    for (const d of dirs) d.cleanup();
  });

  const big = Buffer.alloc(LIMIT * 48, 'a');
  it.each([
    ['the decisions lane, declared length', '/api/alpha/decisions', true],
    ['the decisions lane, chunked', '/api/alpha/decisions', false],
    ['a routed API call, declared length', '/api/v1/keys', true],
    ['a routed API call, chunked', '/api/v1/keys', false],
  ])('%s: the client finishes its upload and reads a 413 envelope', async (_name, path, declared) => {
    const framing = declared ? `content-length: ${big.length}` : 'transfer-encoding: chunked';
    const payload = declared ? big : Buffer.concat([Buffer.from(`${big.length.toString(16)}\r\n`), big, Buffer.from('\r\n0\r\n\r\n')]);
    const { response, writeError } = await rawRequest(
      port,
      `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${key}\r\ncontent-type: application/json\r\n${framing}\r\n\r\n`,
      payload,
    );
    expect(writeError).toBeNull();
    expect(response).toMatch(/^HTTP\/1\.1 413 /);
    const body = JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4).replace(/^[0-9a-f]+\r\n|\r\n0\r\n\r\n$/g, '')) as {
      error: { code: number; message: string };
    };
    expect(body.error).toMatchObject({ code: 413, message: expect.stringContaining(`limit of ${LIMIT} bytes`) });
  });

  it.each([
    ['an unknown method', 'BREW /api/v1/endpoints/zdr HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n'],
    ['a missing Host header', 'GET /api/v1/endpoints/zdr HTTP/1.1\r\n\r\n'],
    ['a malformed Host header', 'GET /api/v1/endpoints/zdr HTTP/1.1\r\nhost: a b/c\r\n\r\n'],
    ['a malformed Host header on the decisions lane', 'POST /api/alpha/decisions HTTP/1.1\r\nhost: \r\ncontent-length: 0\r\n\r\n'],
    ['a broken request line', 'GET\r\n\r\n'],
  ])('%s gets a 400 in the envelope, not an empty body', async (_name, head) => {
    const { response } = await rawRequest(port, head, Buffer.alloc(0));
    expect(response, response).toMatch(/^HTTP\/1\.1 400 /);
    const body = JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4)) as { error: { code: number; message: string } };
    expect(body.error, response).toBeDefined();
    expect(body.error.code).toBe(400);
    expect(body.error.message.length).toBeGreaterThan(10);
  });
});
