import { httpOperationPath, type OperationName } from '../../../shared/contract/names';
import { OPERATIONS, type OperationInput, type OperationOutput } from '../../../shared/contract/operations';
import type { ErrorBody } from '../../../shared/schemas/error-envelope';
import { FailureSchema } from '../../../shared/contract/result';

/** The object the Electron preload exposes; absent in browser mode. */
export type Bridge = Record<OperationName, (input: unknown) => Promise<unknown>>;

declare global {
  interface Window {
    verdict?: Bridge;
  }
}

/** An operation that failed, carrying the envelope's code, message and metadata. */
export class OperationError extends Error {
  readonly code: number;
  readonly metadata: Record<string, unknown> | null | undefined;
  constructor(body: ErrorBody) {
    super(body.message);
    this.name = 'OperationError';
    this.code = body.code;
    this.metadata = body.metadata;
  }
}

export const CLIENT_HEADER = 'x-verdict-client';

async function overHttp(name: OperationName, input: unknown): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(httpOperationPath(name), {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', [CLIENT_HEADER]: 'renderer' },
      body: JSON.stringify(input ?? {}),
    });
  } catch {
    throw new OperationError({ code: 503, message: 'Cannot reach the Verdict server. Is it still running?' });
  }
  try {
    return await response.json();
  } catch {
    throw new OperationError({ code: response.status, message: `The server answered ${response.status} without a readable body` });
  }
}

export const transportKind = (): 'ipc' | 'http' => (typeof window !== 'undefined' && window.verdict ? 'ipc' : 'http');

/**
 * Calls one inspector operation over IPC when the desktop bridge exists, over HTTP otherwise.
 * The only place in the renderer that knows which.
 */
export async function call<N extends OperationName>(name: N, input: OperationInput<N>): Promise<OperationOutput<N>> {
  const raw = window.verdict ? await window.verdict[name](input) : await overHttp(name, input);
  const failure = FailureSchema.safeParse(raw);
  if (failure.success) throw new OperationError(failure.data.error);
  const ok = raw as { ok?: unknown; data?: unknown };
  if (ok?.ok !== true) throw new OperationError({ code: 502, message: `Unexpected answer to ${name}` });
  const parsed = OPERATIONS[name].output.safeParse(ok.data);
  if (!parsed.success) throw new OperationError({ code: 502, message: `The answer to ${name} did not have the expected shape` });
  return parsed.data as OperationOutput<N>;
}
