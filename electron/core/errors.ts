import { ERROR_STATUS, type ErrorKind } from '../../shared/contract/errors';
import type { ErrorBody } from '../../shared/schemas/error-envelope';

/**
 * The one error type the core raises on purpose. Hosts turn it into the spec's envelope
 * (HTTP) or a `{ ok: false, error }` result (IPC). Anything else is an internal error whose
 * details stay in the server log.
 */
export class GatewayError extends Error {
  readonly kind: ErrorKind;
  readonly status: number;
  readonly metadata: Record<string, unknown> | undefined;
  /** Extra response headers, e.g. Retry-After for 429 or Allow for 405. */
  readonly headers: Record<string, string> | undefined;

  constructor(kind: ErrorKind, message: string, options: { metadata?: Record<string, unknown>; headers?: Record<string, string>; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'GatewayError';
    this.kind = kind;
    this.status = ERROR_STATUS[kind];
    this.metadata = options.metadata;
    this.headers = options.headers;
  }

  toBody(): ErrorBody {
    return this.metadata ? { code: this.status, message: this.message, metadata: this.metadata } : { code: this.status, message: this.message };
  }
}

export const isGatewayError = (value: unknown): value is GatewayError => value instanceof GatewayError;
