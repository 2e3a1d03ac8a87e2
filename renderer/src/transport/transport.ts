import { httpOperationPath, type OperationName } from '../../../shared/contract/names';
import { OPERATIONS, type OperationInput, type OperationOutput } from '../../../shared/contract/operations';
import type { ErrorBody } from '../../../shared/schemas/error-envelope';
import { FailureSchema } from '../../../shared/contract/result';
import { DATASET_UPLOAD_PATH } from '../../../shared/contract/dataset-upload-names';
import type { DatasetUpload } from '../../../shared/contract/dataset-upload';
import { UI_SESSION_PATH, UiSessionSchema, type UiSession } from '../../../shared/schemas/audit';

/** The object the Electron preload exposes; absent in browser mode. */
export type Bridge = Record<OperationName, (input: unknown) => Promise<unknown>>;
/** The desktop's dataset import by file path (see shared/contract/dataset-upload.ts). */
export interface FilesBridge {
  importDataset(description: DatasetUpload, file: File): Promise<unknown>;
}

declare global {
  interface Window {
    verdict?: Bridge;
    verdictFiles?: FilesBridge;
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

/** One request to the server, its body read as JSON: 503 when the server cannot be reached, the answer's status when its body is not JSON. */
async function fetchJson(path: string, init: RequestInit): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    // Called off by whoever asked (a query no longer wanted): not a server out of reach.
    if (init.signal?.aborted) throw error;
    throw new OperationError({ code: 503, message: 'Cannot reach the Verdict server. Is it still running?' });
  }
  try {
    return await response.json();
  } catch {
    throw new OperationError({ code: response.status, message: `The server answered ${response.status} without a readable body` });
  }
}

async function overHttp(name: OperationName, input: unknown, signal: AbortSignal | undefined): Promise<unknown> {
  return fetchJson(httpOperationPath(name), {
    method: 'POST',
    ...(signal ? { signal } : {}),
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json', [CLIENT_HEADER]: 'renderer' },
    body: JSON.stringify(input ?? {}),
  });
}

export const transportKind = (): 'ipc' | 'http' => (typeof window !== 'undefined' && window.verdict ? 'ipc' : 'http');

/**
 * Calls one inspector operation over IPC when the desktop bridge exists, over HTTP otherwise.
 * The only place in the renderer that knows which. A query passes its `signal`: called off (the query
 * cancelled, or no longer shown), the request is dropped over HTTP and its answer ignored over IPC.
 */
export async function call<N extends OperationName>(name: N, input: OperationInput<N>, options: { signal?: AbortSignal } = {}): Promise<OperationOutput<N>> {
  const raw = window.verdict ? await window.verdict[name](input) : await overHttp(name, input, options.signal);
  return resultOf(name, raw);
}

/**
 * Calls an operation as the page goes away (`pagehide`: the tab closed or reloaded), when nobody is
 * left to read its answer. Over HTTP a keepalive request, which the browser finishes after the page
 * is gone (`sendBeacon` could not carry the client header the server asks for); over IPC the call
 * is sent at once and the main process carries it out.
 */
export function callAsPageLeaves<N extends OperationName>(name: N, input: OperationInput<N>): void {
  const sent = window.verdict
    ? window.verdict[name](input)
    : fetch(httpOperationPath(name), {
        method: 'POST',
        keepalive: true,
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json', [CLIENT_HEADER]: 'renderer' },
        body: JSON.stringify(input),
      });
  sent.catch(() => undefined);
}

/**
 * Imports a dataset file as a stream: over HTTP its bytes follow a line describing the import in
 * one request body (the browser reads the file as it sends); on the desktop the main process reads
 * it from its path. The page never holds the file's text. Answers like `datasets.import`.
 */
export async function uploadDataset(description: DatasetUpload, file: File): Promise<OperationOutput<'datasets.import'>> {
  if (window.verdictFiles) return resultOf('datasets.import', await window.verdictFiles.importDataset(description, file));
  const raw = await fetchJson(DATASET_UPLOAD_PATH, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/octet-stream', [CLIENT_HEADER]: 'renderer' },
    body: new Blob([`${JSON.stringify(description)}\n`, file]),
  });
  return resultOf('datasets.import', raw);
}

function resultOf<N extends OperationName>(name: N, raw: unknown): OperationOutput<N> {
  const failure = FailureSchema.safeParse(raw);
  if (failure.success) throw new OperationError(failure.data.error);
  const ok = raw as { ok?: unknown; data?: unknown };
  if (ok?.ok !== true) throw new OperationError({ code: 502, message: `Unexpected answer to ${name}` });
  const parsed = OPERATIONS[name].output.safeParse(ok.data);
  if (!parsed.success) throw new OperationError({ code: 502, message: `The answer to ${name} did not have the expected shape` });
  return parsed.data as OperationOutput<N>;
}

/** One request to the session path (browser mode): the Result's data, or the envelope's error thrown. */
async function sessionRequest(method: 'GET' | 'POST' | 'DELETE', body?: unknown): Promise<unknown> {
  const raw = await fetchJson(UI_SESSION_PATH, {
    method,
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json', [CLIENT_HEADER]: 'renderer' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const failure = FailureSchema.safeParse(raw);
  if (failure.success) throw new OperationError(failure.data.error);
  return (raw as { data?: unknown }).data;
}

const sessionOf = (data: unknown): UiSession => {
  const parsed = UiSessionSchema.safeParse(data);
  if (!parsed.success) throw new OperationError({ code: 502, message: 'The answer about the session did not have the expected shape' });
  return parsed.data;
};

/**
 * Signs this browser in with a management key: the server answers with an HttpOnly cookie, so the
 * key is sent once and kept nowhere in the page. Browser mode only (the desktop app needs no sign-in).
 */
export async function signIn(key: string): Promise<UiSession> {
  return sessionOf(await sessionRequest('POST', { key }));
}

/** Who this browser is signed in as; null in the desktop app, which has no sessions. */
export async function currentSession(): Promise<UiSession | null> {
  if (transportKind() === 'ipc') return null;
  return sessionOf(await sessionRequest('GET'));
}

/** Ends this browser's session (the server forgets it and clears the cookie). */
export async function signOut(): Promise<void> {
  await sessionRequest('DELETE');
}
