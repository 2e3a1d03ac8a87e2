import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a scripted upstream does with one request. */
export type Script =
  | {
      kind: 'respond';
      status: number;
      headers?: Record<string, string>;
      /** Written in order, each its own write (bytes as given: a UTF-8 character may be cut between two). */
      chunks: (string | Uint8Array)[];
      chunkDelayMs?: number;
      headerDelayMs?: number;
      /** Let the event loop turn between writes, so a reader in this process sees each write as a read of its own. */
      flushEachChunk?: boolean;
    }
  | { kind: 'reset-before-headers' }
  | { kind: 'reset-mid-body'; status: number; headers?: Record<string, string>; chunks: string[] }
  | { kind: 'stall-before-headers' }
  | { kind: 'stall-after-first-chunk'; status: number; headers?: Record<string, string>; chunks: string[] };

export interface Received {
  /** ms since the epoch when the request body had arrived */
  at: number;
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
  /** ms since the epoch when the exchange ended (answered, or the connection closed); null while open */
  closedAt: number | null;
}

/**
 * A real HTTP server on 127.0.0.1 whose answers a test scripts, to play a provider's wire
 * format, including its failures: resets, stalls, truncated or malformed bodies.
 */
export class ScriptedUpstream {
  readonly received: Received[] = [];
  private scripts: Script[] = [];
  private fallback: Script | null = null;
  private readonly server: Server;
  private readonly sockets = new Set<import('node:net').Socket>();
  url = '';

  constructor() {
    this.server = createServer((req, res) => void this.handle(req, res));
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Scripts the next requests in order; `always` answers every request after them. */
  script(...scripts: Script[]): this {
    this.scripts.push(...scripts);
    return this;
  }

  always(script: Script): this {
    this.fallback = script;
    return this;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let text = '';
    for await (const chunk of req) text += chunk;
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Keep the raw text.
    }
    const received: Received = { at: Date.now(), method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, closedAt: null };
    this.received.push(received);
    res.once('close', () => (received.closedAt = Date.now()));
    const script = this.scripts.shift() ?? this.fallback;
    if (!script) {
      res.writeHead(500).end('no script');
      return;
    }
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    switch (script.kind) {
      case 'reset-before-headers':
        req.socket.destroy();
        return;
      case 'stall-before-headers':
        return; // never answers; the client's timeout must act
      case 'respond':
        if (script.headerDelayMs) await sleep(script.headerDelayMs);
        res.writeHead(script.status, script.headers ?? { 'content-type': 'application/json' });
        for (const [i, chunk] of script.chunks.entries()) {
          if (script.chunkDelayMs) await sleep(script.chunkDelayMs);
          if (script.flushEachChunk && i > 0) {
            // Two turns of the event loop: enough for a reader in this process to take the previous write alone.
            for (let turn = 0; turn < 2; turn++) await new Promise((r) => setImmediate(r));
          }
          res.write(chunk);
        }
        res.end();
        return;
      case 'reset-mid-body':
        res.writeHead(script.status, script.headers ?? { 'content-type': 'text/event-stream' });
        for (const chunk of script.chunks) res.write(chunk);
        await sleep(20);
        req.socket.destroy();
        return;
      case 'stall-after-first-chunk':
        res.writeHead(script.status, script.headers ?? { 'content-type': 'text/event-stream' });
        res.write(script.chunks[0] ?? '');
        return; // never finishes
    }
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Server-sent events as a provider writes them. */
export const sse = (events: unknown[], done = true): string[] => [
  ...events.map((e) => `data: ${typeof e === 'string' ? e : JSON.stringify(e)}\n\n`),
  ...(done ? ['data: [DONE]\n\n'] : []),
];
