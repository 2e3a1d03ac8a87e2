import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../clock';
import { Cancellation } from '../cancel';
import { readText, UpstreamHttp } from './http';
import { verbatim } from './verbatim-json';
import { readSse } from './sse';
import { UpstreamError } from './upstream-error';

let server: Server;
let url = '';
const http = new UpstreamHttp(systemClock);

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/echo') {
      // What arrived, byte for byte, and how its length was given.
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            length: req.headers['content-length'] ?? null,
            chunked: req.headers['transfer-encoding'] ?? null,
            sha: createHash('sha256').update(body).digest('hex'),
          }),
        );
      });
      return;
    }
    req.resume();
    if (req.url === '/overloaded') {
      res.writeHead(529, { 'content-type': 'application/json', 'retry-after': '7' });
      res.end(JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }));
      return;
    }
    // A stream that sends one event and then stays open.
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('data: {"n":1}\n\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(async () => {
  await http.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('UpstreamHttp', () => {
  it('sends each size of body whole, with its Content-Length: a short one, a long state, and images of megabytes', async () => {
    const image = (bytes: number) => verbatim('data:', 'image/png', ';base64,', randomBytes(bytes).toString('base64'));
    const bodies = [
      { model: 'm', text: 'short' },
      { model: 'm', text: 'é'.repeat(15_000), url: image(10) },
      { model: 'm', text: 'ü ✓ \u2028', urls: [image(1_500_000), image(700_000)] },
    ];
    for (const body of bodies) {
      const expected = Buffer.from(JSON.stringify(body), 'utf8');
      const response = await http.postJson(`${url}/echo`, body, { headers: {}, signal: new Cancellation() });
      const seen = JSON.parse(await readText(response.body, new Cancellation())) as { length: string | null; chunked: string | null; sha: string };
      expect(seen).toEqual({ length: String(expected.length), chunked: null, sha: createHash('sha256').update(expected).digest('hex') });
    }
  });

  it("an error status becomes an UpstreamError with the provider's message and Retry-After", async () => {
    const error = (await http.postJson(`${url}/overloaded`, {}, { headers: {}, signal: new Cancellation() }).catch((e: unknown) => e)) as UpstreamError;
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error.message).toBe('HTTP 529: Overloaded');
    expect(error.details).toMatchObject({ status: 529, retryAfterMs: 7_000 });
  });

  it('a classifier that throws fails the call with what it threw', async () => {
    const classify = () => {
      throw new Error('classifier broke');
    };
    await expect(http.postJson(`${url}/overloaded`, {}, { headers: {}, signal: new Cancellation(), classify })).rejects.toThrow('classifier broke');
  });

  it('cancelling while the body is read stops the read as cancelled', async () => {
    const signal = new Cancellation();
    const response = await http.postJson(`${url}/stream`, {}, { headers: {}, signal });
    const events: string[] = [];
    const reading = readSse(response.body, signal, (data) => void events.push(data));
    await expect.poll(() => events).toEqual(['{"n":1}']);
    signal.abort();
    const error = (await reading.catch((e: unknown) => e)) as UpstreamError;
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error.kind).toBe('cancelled');
  });

  it('listening: resolves where a server accepts the connection, and fails as a call would where none does', async () => {
    await expect(http.listening(`${url}/v1`, new Cancellation())).resolves.toBeUndefined();
    // A port nothing listens on: bound and closed again, so it is free.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const address = closed.address();
    await new Promise((resolve) => closed.close(resolve));
    const refused = (await http
      .listening(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/v1`, new Cancellation())
      .catch((e: unknown) => e)) as UpstreamError;
    expect(refused).toBeInstanceOf(UpstreamError);
    expect(refused.message).toBe('connection refused');
    const cancelled = new Cancellation();
    cancelled.abort();
    await expect(http.listening(`${url}/v1`, cancelled)).rejects.toMatchObject({ kind: 'cancelled' });
  });
});
