import { connect } from 'node:net';
import type * as Undici from 'undici';
import type { Dispatcher, Pool } from 'undici';
import { onFirstUse } from '../on-first-use';
import type { Clock } from '../clock';
import { BodyPieces, bodyToSend, type SentBody } from './verbatim-json';
import { UpstreamError, kindForStatus, parseRetryAfter, upstreamMessage, type ErrorClassifier } from './upstream-error';
import type { CancelSignal } from '../cancel';
import { UpstreamBody } from './upstream-body';

const ACCEPT = 'application/json, text/event-stream';

/** undici, loaded with the first upstream call (an idle server holds none). */
const undici = onFirstUse<typeof Undici>('undici');

export interface RequestOptions {
  headers: Record<string, string>;
  signal: CancelSignal;
  /** Reads the provider's error body into a finer kind than the status gives (each provider folder's errors.ts). */
  classify?: ErrorClassifier | undefined;
}

export interface UpstreamResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: UpstreamBody;
  /** ms from the start of the call to the response headers */
  ttfbMs: number;
}

/**
 * Keep-alive connection pools, one per upstream origin, reused across requests. Errors leave
 * here already classified as UpstreamError kinds.
 */
export class UpstreamHttp {
  private readonly pools = new Map<string, Pool>();

  constructor(private readonly clock: Clock) {}

  private pool(origin: string): Pool {
    let pool = this.pools.get(origin);
    if (!pool) {
      pool = new (undici().Pool)(origin, { connections: 64, keepAliveTimeout: 30_000, pipelining: 1, connect: { timeout: 10_000 } });
      this.pools.set(origin, pool);
    }
    return pool;
  }

  /** POSTs JSON; any status other than 2xx becomes an UpstreamError with the provider's message. */
  postJson(url: string, body: unknown, options: RequestOptions): Promise<UpstreamResponse> {
    return this.send('POST', url, bodyToSend(body), options);
  }

  /** GETs a resource (model listings); non-2xx statuses become UpstreamErrors as for POST. */
  get(url: string, options: RequestOptions): Promise<UpstreamResponse> {
    return this.send('GET', url, undefined, options);
  }

  /**
   * Resolves once something accepts a connection at the URL's host and port (and hangs up at once);
   * fails as a call to it would (connection refused, timed out). Discovery asks it before listing a
   * local server's models: one that is not running is known without loading the HTTP client.
   */
  listening(url: string, signal: CancelSignal): Promise<void> {
    const target = new URL(url);
    const port = Number(target.port || (target.protocol === 'https:' ? 443 : 80));
    return new Promise<void>((resolve, reject) => {
      const socket = connect({ host: target.hostname.replace(/^\[|\]$/g, ''), port });
      const onAbort = () => socket.destroy(abortReason(signal));
      const done = (error?: Error) => {
        signal.removeEventListener('abort', onAbort);
        socket.destroy();
        if (error) reject(classifyTransportError(error, signal));
        else resolve();
      };
      signal.addEventListener('abort', onAbort, { once: true });
      if (signal.aborted) onAbort();
      socket.once('connect', () => done());
      socket.once('error', done);
    });
  }

  private readonly parsed = new Map<string, URL>();

  private send(method: 'GET' | 'POST', url: string, body: SentBody | undefined, options: RequestOptions): Promise<UpstreamResponse> {
    let target = this.parsed.get(url);
    if (!target) {
      target = new URL(url);
      if (this.parsed.size < 1_000) this.parsed.set(url, target);
    }
    const headers: Record<string, string> =
      body === undefined ? { accept: ACCEPT, ...options.headers } : { 'content-type': 'application/json', accept: ACCEPT, ...options.headers };
    // A body of pieces is sent with its length, as a one-piece body is, never chunked.
    if (body instanceof BodyPieces) headers['content-length'] = String(body.byteLength);
    return new Promise<UpstreamResponse>((resolve, reject) => {
      const call = new Call(this.clock, options, resolve, reject);
      try {
        this.pool(target.origin).dispatch(
          {
            method,
            path: `${target.pathname}${target.search}`,
            headers,
            ...(body === undefined ? {} : { body: body instanceof BodyPieces ? piecesBody(body) : body }),
            headersTimeout: 0,
            bodyTimeout: 0,
          },
          call,
        );
      } catch (error) {
        call.onResponseError(null, error as Error);
      }
    });
  }

  async close(): Promise<void> {
    await Promise.all([...this.pools.values()].map((p) => p.close()));
    this.pools.clear();
  }
}

/**
 * A body of pieces as undici takes it: any iterable, written a piece at a time with the Content-Length
 * the call's headers give (undici's documented DispatchOptions.body; its type declarations list only
 * the one-piece forms).
 */
const piecesBody = (body: BodyPieces) => body.pieces as unknown as NonNullable<Dispatcher.DispatchOptions['body']>;

/**
 * One call's dispatch handler: undici's lowest-level interface, with no Node stream or promise
 * made per call beyond the one the caller awaits. The response starts the call's `UpstreamBody`;
 * the caller's signal aborts the call at any point.
 */
class Call implements Dispatcher.DispatchHandler {
  private readonly started: number;
  private controller: Dispatcher.DispatchController | null = null;
  private body: UpstreamBody | null = null;
  private settled = false;
  private readonly onAbort = () => {
    this.controller?.abort(abortReason(this.options.signal));
  };

  constructor(
    private readonly clock: Clock,
    private readonly options: RequestOptions,
    private readonly resolve: (response: UpstreamResponse) => void,
    private readonly reject: (error: unknown) => void,
  ) {
    this.started = clock.now();
    options.signal.addEventListener('abort', this.onAbort, { once: true });
  }

  // undici takes a handler with onRequestStart for one of its current interface; without it, the old one.
  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.options.signal.aborted) controller.abort(abortReason(this.options.signal));
  }

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: Record<string, string | string[] | undefined>): void {
    if (statusCode < 200) return;
    const body = new UpstreamBody();
    body.attach(controller);
    this.body = body;
    this.settled = true;
    const ttfbMs = this.clock.now() - this.started;
    if (statusCode < 300) {
      this.resolve({ status: statusCode, headers, body, ttfbMs });
      return;
    }
    const { classify, signal } = this.options;
    void readText(body, signal)
      .catch(() => '')
      .then((text) => {
        const retryAfterMs = parseRetryAfter(headers, this.clock.now());
        const fallback = new UpstreamError(kindForStatus(statusCode), `HTTP ${statusCode}: ${upstreamMessage(text)}`, {
          status: statusCode,
          ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
        });
        return classify ? classify(statusCode, text, fallback) : fallback;
      })
      // A classifier that throws fails the call with what it threw, never an unhandled rejection.
      .then(this.reject, this.reject);
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.body?.push(chunk);
  }

  onResponseEnd(): void {
    this.options.signal.removeEventListener('abort', this.onAbort);
    this.body?.end();
  }

  onResponseError(_controller: Dispatcher.DispatchController | null, error: Error): void {
    this.options.signal.removeEventListener('abort', this.onAbort);
    if (this.body) {
      this.body.fail(error);
      return;
    }
    if (this.settled) return;
    this.settled = true;
    this.reject(classifyTransportError(error, this.options.signal));
  }
}

function abortReason(signal: CancelSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('cancelled by the caller');
}

/** What `readText` reads: undici's response body or an `UpstreamBody`. */
export interface TextBody {
  text(): Promise<string>;
}

/** A whole body as text; transport failures classified like the call's. */
export async function readText(body: TextBody, signal: CancelSignal): Promise<string> {
  try {
    return await body.text();
  } catch (error) {
    throw classifyTransportError(error, signal);
  }
}

/** Connection refused/reset, aborted by our deadline, or cut mid-body. */
export function classifyTransportError(error: unknown, signal: CancelSignal): UpstreamError {
  if (error instanceof UpstreamError) return error;
  if (signal.aborted) {
    const reason = signal.reason as { name?: string } | undefined;
    return reason?.name === 'TimeoutError' ? new UpstreamError('timeout', 'timed out') : new UpstreamError('cancelled', 'cancelled by the caller');
  }
  const code = (error as { code?: string }).code ?? '';
  if (code === 'UND_ERR_CONNECT_TIMEOUT') return new UpstreamError('timeout', 'connection timed out');
  if (code === 'ECONNREFUSED') return new UpstreamError('connection', 'connection refused');
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE') return new UpstreamError('connection', 'connection reset');
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new UpstreamError('connection', 'host not found');
  return new UpstreamError('connection', (error as Error).message || 'connection failed');
}
