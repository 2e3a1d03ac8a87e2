import { createServer } from 'node:http';

/**
 * The benchmark's upstream: a native Decisions provider that answers at once with a fixed,
 * valid response, so that what is measured is the gateway's own work.
 */
const body = JSON.stringify({
  id: 'gen-bench',
  model: 'bench-echo',
  provider: 'Bench',
  answers: { q: { type: 'noul', noul: 0.5 } },
  usage: { input_tokens: 12, output_tokens: 1, cost: 0.000001 },
});
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${typeof address === 'object' && address ? address.port : 0}\n`);
});
