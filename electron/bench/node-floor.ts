import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { Pool } from 'undici';

/**
 * The floor under the gateway's path (a) in Node on this machine: a bare proxy that does only the
 * HTTP and stream work every such gateway must do (Node's HTTP server, the JSON body parsed, one
 * streaming call with undici's cheapest interface, `dispatch` with a handler, as the gateway makes
 * it; the SSE body read and each event parsed, a small JSON answer) and
 * none of ours (no key, route, request building, extraction, accounting or log). The bench runs it
 * beside the gateway: what the gateway spends above it is what our code costs.
 *
 * Usage: node dist/bench/node-floor.mjs <upstream URL> <file holding the upstream request body>
 * Prints its port on stdout.
 */
const [upstreamUrl, bodyFile] = process.argv.slice(2);
if (!upstreamUrl || !bodyFile) throw new Error('usage: node-floor <upstream URL> <body file>');
const upstreamBody = readFileSync(bodyFile, 'utf8');
const upstream = new URL(upstreamUrl);
const pool = new Pool(upstream.origin, { connections: 64 });

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    JSON.parse(Buffer.concat(chunks).toString('utf8'));
    let status = 0;
    const parts: Buffer[] = [];
    pool.dispatch(
      { method: 'POST', path: upstream.pathname, headers: { 'content-type': 'application/json', authorization: 'Bearer floor' }, body: upstreamBody },
      {
        // Present so undici takes this for a handler of its current interface (without it, the old one).
        onRequestStart: () => undefined,
        onResponseStart: (_controller, statusCode) => {
          status = statusCode;
        },
        onResponseData: (_controller, chunk) => {
          parts.push(chunk);
        },
        onResponseEnd: () => {
          let events = 0;
          for (const line of Buffer.concat(parts).toString('utf8').split('\n')) {
            if (!line.startsWith('data: {')) continue;
            JSON.parse(line.slice(6));
            events += 1;
          }
          const out = JSON.stringify({ status, events });
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(out) });
          res.end(out);
        },
        onResponseError: (_controller, error) => {
          res.writeHead(502).end(String(error));
        },
      },
    );
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${typeof address === 'object' && address ? address.port : 0}\n`);
});
