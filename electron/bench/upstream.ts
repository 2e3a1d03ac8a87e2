import { createServer } from 'node:http';

/**
 * The benchmark's upstream, answering at once so that what is measured is the gateway's own work:
 * a native Decisions provider (`/api/alpha/decisions`, a fixed response) and an OpenAI-compatible
 * chat completions endpoint (`/v1/chat/completions`) streaming a one-token answer with its top
 * log-probabilities and usage, as OpenAI does with `logprobs`, `top_logprobs` and `stream_options`.
 */
const decisions = JSON.stringify({
  id: 'gen-bench',
  model: 'bench-echo',
  provider: 'Bench',
  answers: { q: { type: 'noul', noul: 0.5 } },
  usage: { input_tokens: 12, output_tokens: 1, cost: 0.000001 },
});
const chunk = (body: unknown) => `data: ${JSON.stringify(body)}\n\n`;
const top = [
  { token: 'Yes', logprob: -0.105, bytes: [89, 101, 115] },
  { token: 'No', logprob: -2.302, bytes: [78, 111] },
  { token: ' Yes', logprob: -6.9, bytes: [32, 89, 101, 115] },
];
const chat = [
  chunk({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1, model: 'bench-chat', choices: [{ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }] }),
  chunk({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1, model: 'bench-chat', choices: [{ index: 0, delta: { content: 'Yes' }, logprobs: { content: [{ token: 'Yes', logprob: -0.105, bytes: [89, 101, 115], top_logprobs: top }] }, finish_reason: null }] }),
  chunk({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1, model: 'bench-chat', choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: 'length' }] }),
  chunk({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1, model: 'bench-chat', choices: [], usage: { prompt_tokens: 290, completion_tokens: 1, total_tokens: 291, prompt_tokens_details: { cached_tokens: 0 } } }),
  'data: [DONE]\n\n',
].join('');

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    if (req.url?.endsWith('/chat/completions')) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'content-length': Buffer.byteLength(chat) });
      res.end(chat);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(decisions) });
    res.end(decisions);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${typeof address === 'object' && address ? address.port : 0}\n`);
});
