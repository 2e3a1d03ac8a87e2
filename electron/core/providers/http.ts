import { Pool, errors as undiciErrors, type Dispatcher } from 'undici';
import type { Clock } from '../clock';
import { stringifyBody } from './verbatim-json';
import { UpstreamError, kindForStatus, parseRetryAfter, upstreamMessage, type ErrorClassifier } from './upstream-error';
import type { CancelSignal } from '../cancel';

const ACCEPT = 'application/json, text/event-stream';

export interface RequestOptions {
  headers: Record<string, string>;
  signal: CancelSignal;
  /** Reads the provider's error body into a finer kind than the status gives (each provider folder's errors.ts). */
  classify?: ErrorClassifier | undefined;
}

export interface UpstreamResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Dispatcher.ResponseData['body'];
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
      pool = new Pool(origin, { connections: 64, keepAliveTimeout: 30_000, pipelining: 1, connect: { timeout: 10_000 } });
      this.pools.set(origin, pool);
    }
    return pool;
  }

  /** POSTs JSON; any status other than 2xx becomes an UpstreamError with the provider's message. */
  postJson(url: string, body: unknown, options: RequestOptions): Promise<UpstreamResponse> {
    return this.send('POST', url, stringifyBody(body), options);
  }

  /** GETs a resource (model listings); non-2xx statuses become UpstreamErrors as for POST. */
  get(url: string, options: RequestOptions): Promise<UpstreamResponse> {
    return this.send('GET', url, undefined, options);
  }

  private readonly parsed = new Map<string, URL>();

  private async send(method: 'GET' | 'POST', url: string, body: string | undefined, options: RequestOptions): Promise<UpstreamResponse> {
    let target = this.parsed.get(url);
    if (!target) {
      target = new URL(url);
      if (this.parsed.size < 1_000) this.parsed.set(url, target);
    }
    const started = this.clock.now();
    let response: Dispatcher.ResponseData;
    try {
      response = await this.pool(target.origin).request({
        method,
        path: `${target.pathname}${target.search}`,
        headers: body === undefined ? { accept: ACCEPT, ...options.headers } : { 'content-type': 'application/json', accept: ACCEPT, ...options.headers },
        ...(body === undefined ? {} : { body }),
        signal: options.signal,
        headersTimeout: 0,
        bodyTimeout: 0,
      });
    } catch (error) {
      throw classifyTransportError(error, options.signal);
    }
    const ttfbMs = this.clock.now() - started;
    if (response.statusCode < 200 || response.statusCode >= 300) {
      const text = await readText(response.body, options.signal).catch(() => '');
      const retryAfterMs = parseRetryAfter(response.headers, this.clock.now());
      const fallback = new UpstreamError(kindForStatus(response.statusCode), `HTTP ${response.statusCode}: ${upstreamMessage(text)}`, {
        status: response.statusCode,
        ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      });
      throw options.classify ? options.classify(response.statusCode, text, fallback) : fallback;
    }
    return { status: response.statusCode, headers: response.headers, body: response.body, ttfbMs };
  }

  async close(): Promise<void> {
    await Promise.all([...this.pools.values()].map((p) => p.close()));
    this.pools.clear();
  }
}

/** A whole body as text; transport failures classified like the call's. */
export async function readText(body: Dispatcher.ResponseData['body'], signal: CancelSignal): Promise<string> {
  try {
    // undici's own reader: no async iterator and no promise per chunk.
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
    return reason?.name === 'TimeoutError'
      ? new UpstreamError('timeout', 'timed out')
      : new UpstreamError('cancelled', 'cancelled by the caller');
  }
  const code = (error as { code?: string }).code ?? '';
  if (error instanceof undiciErrors.ConnectTimeoutError) return new UpstreamError('timeout', 'connection timed out');
  if (code === 'ECONNREFUSED') return new UpstreamError('connection', 'connection refused');
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE') return new UpstreamError('connection', 'connection reset');
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new UpstreamError('connection', 'host not found');
  return new UpstreamError('connection', (error as Error).message || 'connection failed');
}
