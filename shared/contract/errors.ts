/**
 * The closed set of error kinds that cross a boundary (HTTP or IPC), mapped to HTTP statuses in
 * this one place. On the wire the envelope's `error.code` is the status (spec section 7).
 */
export const ERROR_STATUS = {
  bad_request: 400,
  unauthorized: 401,
  payment_required: 402,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  payload_too_large: 413,
  rate_limited: 429,
  internal: 500,
  bad_gateway: 502,
  unavailable: 503,
  upstream_timeout: 524,
  overloaded: 529,
} as const;

export type ErrorKind = keyof typeof ERROR_STATUS;
export type ErrorStatus = (typeof ERROR_STATUS)[ErrorKind];

export const FORBIDDEN_MANAGEMENT_MESSAGE = 'Only management keys can perform this operation';
