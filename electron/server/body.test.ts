import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readIncomingText } from './body';

const LIMIT = 100_000;

/** A real server that answers with what it read (or the error), and raw sockets to send bytes exactly as wanted. */
describe('reading a request body', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer((req, res) => {
      readIncomingText(req, LIMIT).then(
        (text) => res.end(JSON.stringify({ ok: true, length: text.length, text: text.slice(0, 40) })),
        (error: Error) => res.end(JSON.stringify({ ok: false, error: error.message })),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** Sends the pieces with a pause between them; resolves with the JSON the server answered. */
  function send(pieces: string[], pauseMs = 0): Promise<{ ok: boolean; length?: number; text?: string; error?: string }> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let reply = '';
      socket.setEncoding('utf8');
      socket.on('data', (d: string) => {
        reply += d;
        const body = reply.split('\r\n\r\n')[1];
        if (body && /\}$/.test(body)) {
          socket.destroy();
          resolve(JSON.parse(body.replace(/^[0-9a-f]+\r\n/, '').split('\r\n')[0]!));
        }
      });
      socket.on('error', reject);
      void (async () => {
        for (const piece of pieces) {
          socket.write(piece);
          if (pauseMs) await new Promise((r) => setTimeout(r, pauseMs));
        }
      })();
    });
  }
  const head = (headers: string) => `POST / HTTP/1.1\r\nHost: x\r\n${headers}\r\n`;

  it('a small body that came with the headers', async () => {
    expect(await send([`${head('Content-Length: 11\r\n')}hello world`])).toEqual({ ok: true, length: 11, text: 'hello world' });
  });

  it('a body that arrives in pieces, after the headers', async () => {
    expect(await send([head('Content-Length: 11\r\n'), 'hello', ' world'], 30)).toEqual({ ok: true, length: 11, text: 'hello world' });
  });

  it('no body', async () => {
    expect(await send([head('Content-Length: 0\r\n')])).toEqual({ ok: true, length: 0, text: '' });
  });

  it('multi-byte characters split between pieces are kept whole', async () => {
    const text = 'é'.repeat(10);
    const bytes = Buffer.from(text);
    const split = [bytes.subarray(0, 5).toString('latin1'), bytes.subarray(5).toString('latin1')];
    const result = await new Promise<{ text?: string }>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let reply = '';
      socket.on('data', (d: Buffer) => {
        reply += d.toString('utf8');
        const body = reply.split('\r\n\r\n')[1];
        if (body && /\}$/.test(body)) {
          socket.destroy();
          resolve(JSON.parse(body));
        }
      });
      socket.on('error', reject);
      socket.write(head(`Content-Length: ${bytes.length}\r\n`));
      socket.write(Buffer.from(split[0]!, 'latin1'));
      setTimeout(() => socket.write(Buffer.from(split[1]!, 'latin1')), 30);
    });
    expect(result.text).toBe(text);
  });

  it('refuses a chunked body past the limit, whether it came at once or in pieces', async () => {
    const chunk = 'x'.repeat(60_000);
    const chunked = [
      `${head('Transfer-Encoding: chunked\r\n')}`,
      `${(60_000).toString(16)}\r\n${chunk}\r\n`,
      `${(60_000).toString(16)}\r\n${chunk}\r\n`,
      '0\r\n\r\n',
    ];
    expect((await send([chunked.join('')])).error).toMatch(/larger than this server's limit of 100000 bytes/);
    expect((await send(chunked, 20)).error).toMatch(/larger than this server's limit/);
  });

  it('refuses a declared length past the limit before reading', async () => {
    expect((await send([head('Content-Length: 100001\r\n')])).error).toMatch(/larger than this server's limit/);
  });
});
