import { readFileSync } from 'node:fs';
import { ServerResponse, type IncomingMessage, type Server } from 'node:http';
import type { Socket } from 'node:net';

/** How many connections a server holds and how slow a client may be: settings (docs/DEPLOY.md). */
export interface ConnectionLimits {
  /** A request's headers must arrive whole within this (and a silent new connection is closed after it). */
  headersTimeoutMs: number;
  /** A body slower than this on average (bytes a second, after its first seconds) is cut with a 408. */
  bodyMinBytesPerSecond: number;
  /** Connections held at once; at the cap, the longest idle one is closed to make room. */
  maxConnections: number;
  /** Connections held at once from one client address (0: no such cap, e.g. behind a load balancer). */
  maxConnectionsPerAddress: number;
}

/** A body gets this long before its rate is judged (a client's first round trips, a slow start). */
const BODY_GRACE_MS = 5_000;
/** After an answer sent before the body was read, the rest is read and dropped this long at most, so the client reads the answer rather than a reset. */
const LINGER_MS = 2_000;

/** The open-file limit of this process (Linux), or null where it cannot be read. */
function openFileLimit(): number | null {
  try {
    const line = /^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    return line ? Number(line[1]) : null;
  } catch {
    return null;
  }
}

/** The defaults: 10 s for headers, 1 KB/s for bodies, 4,096 connections (fewer when the open-file limit is lower), a quarter of them per address. */
export function defaultConnectionLimits(): ConnectionLimits {
  const files = openFileLimit();
  const maxConnections = Math.max(64, Math.min(4096, files === null ? 4096 : files - 256));
  return { headersTimeoutMs: 10_000, bodyMinBytesPerSecond: 1024, maxConnections, maxConnectionsPerAddress: Math.max(16, Math.floor(maxConnections / 4)) };
}

interface Held {
  address: string;
  /** A request is being read or answered on it. */
  busy: boolean;
  /** When it last became idle (or connected). */
  since: number;
  /** The request on it whose body may still be arriving, watched for its rate; null once it has come or been answered. */
  reading: Reading | null;
}

interface Reading {
  req: IncomingMessage;
  res: ServerResponse;
  started: number;
  readAtStart: number;
}

/**
 * The server's answers (createServer's `ServerResponse`), made to hold the connection rules
 * without a closure, timer or own property made per request: an answer sent before its request's
 * body has arrived whole (a 401, 413 or 429 refusing it) says `Connection: close`, so no client
 * sends another request on the connection, and the connection then ends after it. Not at once: what
 * is still coming is read and dropped for LINGER_MS at most, so that the client, still sending,
 * reads the answer rather than a reset. When the answer closes, its connection is idle again.
 */
export class HeldResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
  /** The connection's state and its server's rules, set by the function holdConnections returns. */
  held: Held | null = null;
  rules: { idle(state: Held): void } | null = null;

  override writeHead(...args: unknown[]): this {
    const socket = this.socket;
    if (!this.req.complete && !this.headersSent && socket) {
      this.setHeader('connection', 'close');
      // Node ends a connection closed after its answer with destroySoon, which resets what is still arriving.
      (socket as Socket & { destroySoon(): void }).destroySoon = () => {
        socket.end();
        this.req.resume();
        setTimeout(() => socket.destroy(), LINGER_MS).unref();
      };
    }
    return (super.writeHead as (...a: unknown[]) => this)(...args);
  }

  override emit(event: string | symbol, ...args: unknown[]): boolean {
    if (event === 'close' && this.held) {
      this.rules!.idle(this.held);
      this.held = null;
    }
    return super.emit(event, ...args);
  }
}

/**
 * Holds a server's connections to its limits, so that slow or idle clients cannot take every
 * connection from the others: headers within `headersTimeoutMs` (Node's own timer, checked every
 * second; idle kept-alive connections are not subject to it), bodies at `bodyMinBytesPerSecond` at
 * least (one sweep a second over the connections whose body is arriving), connections capped in all
 * (the longest idle one is closed to make room for a new one, and the new one is refused when every
 * one is busy) and per client address. The server must answer with HeldResponse (an answer sent
 * before its request's body was read ends the connection). Returns what the request handler calls
 * first with each request.
 */
export function holdConnections(
  server: Server,
  limits: ConnectionLimits,
  now: () => number = Date.now,
): (req: IncomingMessage, res: ServerResponse) => boolean {
  server.headersTimeout = limits.headersTimeoutMs;
  const held = new Map<Socket, Held>();
  const perAddress = new Map<string, number>();
  let reading = 0;
  let sweeper: NodeJS.Timeout | null = null;

  const stopReading = (state: Held) => {
    if (!state.reading) return;
    state.reading = null;
    reading -= 1;
    if (reading === 0 && sweeper) {
      clearInterval(sweeper);
      sweeper = null;
    }
  };
  const sweep = () => {
    const at = now();
    for (const [socket, state] of held) {
      const r = state.reading;
      if (!r) continue;
      if (r.req.complete) {
        stopReading(state);
        continue;
      }
      const elapsed = at - r.started;
      if (elapsed < BODY_GRACE_MS) continue;
      if ((socket.bytesRead - r.readAtStart) / (elapsed / 1000) >= limits.bodyMinBytesPerSecond) continue;
      stopReading(state);
      tooSlow(r.res, socket, limits.bodyMinBytesPerSecond);
    }
  };
  const rules = {
    idle: (state: Held) => {
      stopReading(state);
      state.busy = false;
      state.since = now();
    },
  };

  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    const fromThere = perAddress.get(address) ?? 0;
    if (limits.maxConnectionsPerAddress > 0 && fromThere >= limits.maxConnectionsPerAddress)
      return refuse(socket, `This server holds at most ${limits.maxConnectionsPerAddress} connections from one address; close some, or reuse one`);
    if (held.size >= limits.maxConnections && !closeLongestIdle(held))
      return refuse(socket, 'This server holds as many connections as it can; try again in a moment');
    held.set(socket, { address, busy: false, since: now(), reading: null });
    perAddress.set(address, fromThere + 1);
    socket.once('close', () => {
      const state = held.get(socket);
      if (state) stopReading(state);
      held.delete(socket);
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left > 0) perAddress.set(address, left);
      else perAddress.delete(address);
    });
  });

  return (req, res) => {
    const socket = req.socket;
    const state = held.get(socket);
    // A connection refused at the door (its 503 sent) serves nothing it sends after.
    if (!state) {
      socket.destroy();
      return false;
    }
    if (!(res instanceof HeldResponse))
      throw new Error('holdConnections: the server must answer with HeldResponse (createServer({ ServerResponse: HeldResponse }))');
    state.busy = true;
    res.held = state;
    res.rules = rules;
    const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
    if (hasBody && !req.complete) {
      state.reading = { req, res, started: now(), readAtStart: socket.bytesRead };
      reading += 1;
      if (!sweeper) {
        sweeper = setInterval(sweep, 1000);
        sweeper.unref();
      }
    }
    return true;
  };
}

/** Closes the connection idle the longest (none busy with a request); whether there was one. */
function closeLongestIdle(held: Map<Socket, Held>): boolean {
  let oldest: [Socket, Held] | null = null;
  for (const entry of held) if (!entry[1].busy && (!oldest || entry[1].since < oldest[1].since)) oldest = entry;
  if (!oldest) return false;
  oldest[0].destroy();
  held.delete(oldest[0]);
  return true;
}

/** A 503 in the envelope on a connection that is not taken, then closed. */
function refuse(socket: Socket, message: string): void {
  const body = JSON.stringify({ error: { code: 503, message } });
  socket.end(
    `HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nretry-after: 1\r\nconnection: close\r\n\r\n${body}`,
  );
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}

/** A body arriving slower than the limit: 408 when nothing was answered yet, and the connection ends. */
function tooSlow(res: ServerResponse, socket: Socket, rate: number): void {
  if (!res.headersSent) {
    const body = JSON.stringify({ error: { code: 408, message: `The request body arrived slower than ${rate} bytes a second; send it at once` } });
    res.writeHead(408, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), connection: 'close' });
    res.end(body);
  }
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}
