import { createServer } from 'node:http';

/**
 * The benchmark's upstream, answering at once so that what is measured is the gateway's own work:
 * - a native Decisions provider (`/api/alpha/decisions`, a fixed response);
 * - an OpenAI-compatible chat completions endpoint (`/v1/chat/completions`) streaming a one-token
 *   answer with its top log-probabilities and usage, as OpenAI does with `logprobs`,
 *   `top_logprobs` and `stream_options`;
 * - the same under `/box/v1/chat/completions`, answering a box as JSON text;
 * - Anthropic Messages (`/anthropic/v1/messages`) streaming stated probabilities as JSON text, in
 *   Anthropic's event sequence (message_start … message_stop).
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
  chunk({
    id: 'chatcmpl-bench',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'bench-chat',
    choices: [{ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }],
  }),
  chunk({
    id: 'chatcmpl-bench',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'bench-chat',
    choices: [
      {
        index: 0,
        delta: { content: 'Yes' },
        logprobs: { content: [{ token: 'Yes', logprob: -0.105, bytes: [89, 101, 115], top_logprobs: top }] },
        finish_reason: null,
      },
    ],
  }),
  chunk({
    id: 'chatcmpl-bench',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'bench-chat',
    choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: 'length' }],
  }),
  chunk({
    id: 'chatcmpl-bench',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'bench-chat',
    choices: [],
    usage: { prompt_tokens: 290, completion_tokens: 1, total_tokens: 291, prompt_tokens_details: { cached_tokens: 0 } },
  }),
  'data: [DONE]\n\n',
].join('');

const textChunk = (content: string, finish: string | null) =>
  chunk({
    id: 'chatcmpl-box',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'bench-vision',
    choices: [{ index: 0, delta: { content }, logprobs: null, finish_reason: finish }],
  });
const box = [
  chunk({
    id: 'chatcmpl-box',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'bench-vision',
    choices: [{ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }],
  }),
  textChunk('{"box": {"top": 0.21, "bottom": 0.64,', null),
  textChunk(' "left": 0.18, "right": 0.55}}', 'stop'),
  chunk({
    id: 'chatcmpl-box',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'bench-vision',
    choices: [],
    usage: { prompt_tokens: 1120, completion_tokens: 24, total_tokens: 1144 },
  }),
  'data: [DONE]\n\n',
].join('');
const event = (type: string, body: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...body })}\n\n`;
const messages = [
  event('message_start', {
    message: {
      id: 'msg_bench',
      type: 'message',
      role: 'assistant',
      model: 'claude-bench',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 320, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    },
  }),
  event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
  event('ping', {}),
  event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: '{"probabilities": {"Yes": 0.82,' } }),
  event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: ' "No": 0.18}}' } }),
  event('content_block_stop', { index: 0 }),
  event('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 17 } }),
  event('message_stop', {}),
].join('');

const stream = (res: import('node:http').ServerResponse, body: string) => {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'content-length': Buffer.byteLength(body) });
  res.end(body);
};

/**
 * While recording (`POST /__record`), request bodies are kept in arrival order and `GET /__record`
 * hands them over (and stops): the bench sends the upstream directly exactly what the gateway sent.
 */
let recorded: { path: string; body: string }[] | null = null;

const server = createServer((req, res) => {
  if (req.url === '/__record') {
    req.resume();
    if (req.method === 'POST') recorded = [];
    const body = req.method === 'GET' ? JSON.stringify(recorded ?? []) : '[]';
    if (req.method === 'GET') recorded = null;
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
    return;
  }
  const parts: Buffer[] | null = recorded ? [] : null;
  if (parts) req.on('data', (part: Buffer) => parts.push(part));
  else req.resume();
  req.on('end', () => {
    if (parts && recorded) recorded.push({ path: req.url ?? '', body: Buffer.concat(parts).toString() });
    if (req.url === '/box/v1/chat/completions') return stream(res, box);
    if (req.url === '/anthropic/v1/messages') return stream(res, messages);
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
