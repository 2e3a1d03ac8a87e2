import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One call the provider billed: its path, and the usage it reported. */
export interface BilledCall {
  path: string;
  prompt: number;
  completion: number;
}

/**
 * An OpenAI-format provider at the bound of what a call can cost: it counts one prompt token per
 * UTF-8 byte of everything it was sent (messages and schema) plus 32, replies at the full
 * max_tokens, and never gives a usable answer (its one token is "The"), so every question tries
 * every endpoint with every call. What it bills is then exactly the most a request can cost.
 */
export async function maxBillingProvider(): Promise<{ url: string; billed: BilledCall[]; close(): Promise<void> }> {
  const billed: BilledCall[] = [];
  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      const body = JSON.parse(text) as { messages: { content: string }[]; max_tokens: number; response_format?: { json_schema: { schema: unknown } } };
      const sent = body.messages.map((m) => m.content).join('') + (body.response_format ? JSON.stringify(body.response_format.json_schema.schema) : '');
      const usage = { prompt_tokens: Buffer.byteLength(sent) + 32, completion_tokens: body.max_tokens, total_tokens: 0 };
      billed.push({ path: req.url ?? '', prompt: usage.prompt_tokens, completion: usage.completion_tokens });
      const chunk = {
        id: 'c',
        object: 'chat.completion.chunk',
        choices: [
          {
            index: 0,
            delta: { content: 'The' },
            logprobs: { content: [{ token: 'The', logprob: 0, bytes: null, top_logprobs: [{ token: 'The', logprob: 0 }] }] },
            finish_reason: 'stop',
          },
        ],
      };
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(
        `data: ${JSON.stringify(chunk)}\n\ndata: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', choices: [], usage })}\n\ndata: [DONE]\n\n`,
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    billed,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
