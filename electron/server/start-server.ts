import {
  type PgOptions,
  type OtlpCollector,
  type ImageFetchOptions,
  createCore,
  type Core,
  type CoreOptions,
  FileSecretStore,
  ownerOnlyFileCodec,
  type Logger,
  type FleetOptions,
  type GatewayError,
} from '../core';
import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { createServer, type Server } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { checkHost, createServerApp, DEFAULT_BODY_LIMIT_BYTES } from './app';
import { writeError } from './http-errors';
import { allowedHostnames } from './hosts';
import { decisionsLane } from './decisions-lane';
import { BodyMemory } from './body-memory';
import { observability, type Observability } from './observability';
import { defaultConnectionLimits, HeldResponse, holdConnections, type ConnectionLimits } from './connections';

export interface StartServerOptions {
  port: number;
  host: string;
  dataDir: string;
  /** A `postgres://` URL: the data is there (shared by every instance that names it), not in the data directory's SQLite file. */
  database?: string;
  /** A `redis://` URL: keys with limits admitted there, shared by every instance (with `database`). */
  redis?: string;
  /** How long a Redis command may take (default 150 ms). */
  redisTimeoutMs?: number;
  /** With Redis away, `local` keeps rate limits per instance (divided by the live instances); credit is refused either way. */
  redisFallback?: 'refuse' | 'local';
  /** On a team's database: how long an evaluation item's claim lasts unrenewed (default 20 s). */
  claimLeaseMs?: number;
  /** With `database`: connections per process and the listener's URL. */
  databaseConnections?: PgOptions;
  /** The operator's OTLP collector for traces (OTEL_EXPORTER_OTLP_* variables). */
  otlp?: OtlpCollector;
  rendererDir: string;
  version: string;
  bodyLimitBytes?: number;
  /** Bytes of large request bodies held at once (body-memory.ts); 32 MiB by default. */
  bodyMemoryBytes?: number;
  logger?: Logger;
  sandbox?: FleetOptions;
  timeouts?: { deadlineMs: number; attemptMs: number };
  /** Host names to answer besides the bound address and the loopback names (a proxy's public name). */
  allowedHosts?: readonly string[];
  /**
   * Let the HTTP adapter install its lighter global Request/Response (much faster responses).
   * Off when other code in the same process checks `instanceof Request` (tests that run a client here).
   */
  overrideGlobalObjects?: boolean;
  /** How image URLs in requests are fetched, when the settings allow it (tests trust their own server). */
  imageFetch?: ImageFetchOptions;
  /** Connection caps and slow-client timeouts, over the defaults (connections.ts). */
  connections?: Partial<ConnectionLimits>;
}

export interface RunningServer {
  core: Core;
  /** Base URL of the server, e.g. http://127.0.0.1:8787 */
  url: string;
  /** The link that opens the inspector with a session (carries this run's token). */
  uiUrl: string;
  /** Set when this start created the first management key; shown once, never stored. */
  initialManagementKey: string | undefined;
  close(): Promise<void>;
  /**
   * Stops as a rolling deploy wants it: /readyz turns 503 at once, new connections are refused once
   * the load balancer has had `noticeMs` to see it, requests in flight finish (up to `drainMs`), then
   * it closes.
   */
  drain(options: { noticeMs: number; drainMs: number }): Promise<void>;
}

const urlHost = (host: string): string => (host.includes(':') ? `[${host}]` : host);

/** Starts the headless host: the core, then the HTTP server on host:port. */
export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const secrets = new FileSecretStore(join(options.dataDir, 'secrets.json'), ownerOnlyFileCodec);
  const core = await createCore(coreOptions(options, secrets));
  // Made by one instance only when several start together on an empty database; logged as the command line's (who started the server).
  const initialManagementKey =
    (await core.apiKeys.count()) === 0
      ? (await core.keyManagement.createFirst({ kind: 'command_line' }, { name: 'Initial management key', kind: 'management' }))?.key
      : undefined;
  const uiToken = randomBytes(24).toString('base64url');
  const hosts = allowedHostnames(options.host, options.allowedHosts);
  // Requests are counted where every one passes, the lane's as well as the router's.
  const watch = observability(core);
  // One budget for the router's routes and the lane's.
  const bodyMemory = new BodyMemory(options.bodyMemoryBytes);
  const app = createServerApp(core, {
    observability: watch,
    bodyMemory,
    uiToken,
    rendererDir: options.rendererDir,
    ...(options.bodyLimitBytes ? { bodyLimitBytes: options.bodyLimitBytes } : {}),
    allowedHostnames: hosts,
  });
  const routed = getRequestListener(app.fetch, { overrideGlobalObjects: options.overrideGlobalObjects ?? true });
  const lane = decisionsLane(core, { allowedHostnames: hosts, bodyLimitBytes: options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES, bodyMemory });
  // The Host check below answers a missing Host in the envelope; Node's own check would send a bare 400.
  // Timeouts are checked every second (Node's default, 30 s, would let a slow client stay that much longer).
  const server = createServer({ requireHostHeader: false, connectionsCheckingInterval: 1000, ServerResponse: HeldResponse }, (req, res) => {
    if (!held(req, res)) return;
    // Checked before anything else reads the request, so a missing or foreign Host gets the envelope.
    try {
      checkHost(hosts, req.headers.host ?? '');
    } catch (error) {
      writeError(res, error as GatewayError, randomUUID());
      return;
    }
    if (req.url?.startsWith('/api/')) {
      const started = performance.now();
      res.once('finish', () => watch.observe(req.url!, res.statusCode, (performance.now() - started) / 1000));
    }
    if (!lane(req, res)) void routed(req, res);
  });
  // An idle kept-alive connection is closed by the server only after a load balancer or client would
  // have given it up (AWS's and nginx's idle timeouts are 60 s): closed sooner, a request sent on it
  // at that moment meets a reset connection (a 502 behind a proxy). Idle kept-alive connections are
  // not subject to the headers timeout (set by holdConnections), which only runs while a request's
  // headers are arriving, or on a new connection that has sent none.
  server.keepAliveTimeout = 65_000;
  const held = holdConnections(server, { ...defaultConnectionLimits(), ...options.connections });
  // What Node's parser refuses before any handler runs (a malformed Host, an unknown method, a
  // broken request line) gets the same JSON envelope as every other error, not a bare 400.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => answerClientError(error, socket, core));
  await listen(server, options, core);
  const { port } = server.address() as AddressInfo;
  const url = `http://${urlHost(options.host)}:${port}`;
  return {
    core,
    url,
    uiUrl: `${url}/?token=${uiToken}`,
    initialManagementKey,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          void core.close().then(resolve);
        });
        if ('closeAllConnections' in server) server.closeAllConnections();
      }),
    drain: (timing) => drainServer(server, watch, core, timing),
  };
}

/** A request Node could not parse: an envelope when the socket can still take one; hang-ups only at debug. */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex, core: Core): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    core.logger.debug({ code: error.code }, 'client went away');
    socket.destroy();
    return;
  }
  const [status, reason, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'The request headers are larger than this server accepts']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'The request took too long to send its headers; send them at once']
        : [400, 'Bad Request', `The request could not be read as HTTP (${error.code ?? 'malformed'}): check the method, the request line and the headers`];
  const body = JSON.stringify({ error: { code: status, message } });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/** The core's options from the server's. */
function coreOptions(options: StartServerOptions, secrets: FileSecretStore): CoreOptions {
  return {
    dataDir: options.dataDir,
    ...(options.database ? { database: options.database } : {}),
    ...(options.redis ? { redis: options.redis } : {}),
    ...(options.redisTimeoutMs ? { redisTimeoutMs: options.redisTimeoutMs } : {}),
    ...(options.databaseConnections ? { databaseConnections: options.databaseConnections } : {}),
    ...(options.redisFallback ? { redisFallback: options.redisFallback } : {}),
    ...(options.claimLeaseMs ? { claimLeaseMs: options.claimLeaseMs } : {}),
    ...(options.otlp ? { otlp: options.otlp } : {}),
    secrets,
    host: 'browser',
    version: options.version,
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.sandbox ? { sandbox: options.sandbox } : {}),
    ...(options.timeouts ? { timeouts: options.timeouts } : {}),
    ...(options.imageFetch ? { imageFetch: options.imageFetch } : {}),
  };
}

/** Listens on host:port; a port taken or not allowed is an error saying so, with the core closed. */
async function listen(server: Server, options: StartServerOptions, core: Core): Promise<void> {
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, options.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await core.close();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new Error(`Port ${options.port} on ${options.host} is already in use; choose another with --port`);
    if (code === 'EACCES') throw new Error(`No permission to listen on ${options.host}:${options.port}; choose a port above 1023 with --port`);
    throw error;
  }
}

/** Stops taking new work (/readyz says draining), waits `noticeMs` for a load balancer to notice, lets requests in flight finish for at most `drainMs`, then closes. */
async function drainServer(server: Server, watch: Observability, core: Core, { noticeMs, drainMs }: { noticeMs: number; drainMs: number }): Promise<void> {
  watch.drain();
  await new Promise((resolve) => setTimeout(resolve, noticeMs));
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // Kept-alive connections with nothing in flight go now; the others once their answer is sent.
  server.closeIdleConnections();
  const idle = setInterval(() => server.closeIdleConnections(), 100);
  const late = new Promise<void>((resolve) => setTimeout(resolve, drainMs).unref());
  await Promise.race([closed, late]);
  clearInterval(idle);
  server.closeAllConnections();
  await core.close();
}
