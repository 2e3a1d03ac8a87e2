import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WIRE } from './wire-fixtures';

export interface LabelRequest {
  /** the upstream model name the request named */
  model: string;
  /** the whole request body as text, to find an item's marker or a question's wording in */
  text: string;
}

/**
 * A loopback provider speaking the OpenAI chat-completions stream, whose label probabilities a
 * test chooses per request (top_logprobs carry exactly ln p of each label). Every request is
 * recorded with the time it arrived.
 */
export class LogprobProvider {
  readonly received: { at: number; model: string; text: string }[] = [];
  private server: Server | null = null;
  url = '';

  constructor(
    private readonly answer: (request: LabelRequest) => { labels: Record<string, number>; usage?: { prompt: number; completion: number } },
    /** `fail` answers a request with that HTTP status instead (still recorded as received). */
    private readonly options: { delayMs?: number; fail?: (request: LabelRequest) => number | null } = {},
  ) {}

  async start(port = 0): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        if (!req.url?.endsWith('/chat/completions')) {
          res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
          return;
        }
        const body = JSON.parse(text) as { model: string };
        this.received.push({ at: Date.now(), model: body.model, text });
        const status = this.options.fail?.({ model: body.model, text }) ?? null;
        if (status !== null) {
          res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `failed on purpose with ${status}` } }));
          return;
        }
        const { labels, usage } = this.answer({ model: body.model, text });
        const top = Object.entries(labels)
          .filter(([, p]) => p > 0)
          .sort((a, b) => b[1] - a[1])
          .map(([token, p]) => ({ token, logprob: Math.log(p) }));
        const script = WIRE.openai(top[0]!.token, { top, usage: usage ?? { prompt: 100, completion: 1 } });
        const send = () => {
          if (script.kind !== 'respond') return;
          res.writeHead(200, script.headers);
          for (const c of script.chunks) res.write(c);
          res.end();
        };
        if (this.options.delayMs) setTimeout(send, this.options.delayMs);
        else send();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** A catalog file with one local OpenAI-format provider at `url` serving each model at known prices. */
export function logprobCatalog(url: string, models: string[], prices = { prompt: '0.000001', completion: '0.000002' }) {
  return {
    version: 1,
    providers: [{ slug: 'lp', name: 'Logprob provider', wire_format: 'openai', base_url: `${url}/v1`, local: true }],
    models: models.map((m) => ({
      id: `lp/${m}`,
      name: m,
      created: 1,
      architecture: { input_modalities: ['text'], output_modalities: ['text'], modality: 'text->text', instruct_type: null, tokenizer: null },
    })),
    endpoints: models.map((m) => ({
      model_id: `lp/${m}`,
      provider: 'lp',
      upstream_model: m,
      pricing: prices,
      supported_parameters: ['logprobs', 'top_logprobs', 'max_tokens'],
    })),
  };
}
