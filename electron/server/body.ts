import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context } from 'hono';
import { Cancellation, type CancelSignal, GatewayError } from '../core';
import { LARGE_BODY_BYTES, largeBodies } from './turns';

const tooLarge = (limit: number) =>
  new GatewayError('payload_too_large', `The request body is larger than this server's limit of ${limit} bytes`, { metadata: { limit_bytes: limit } });

/**
 * Reads a request body as text, refusing more than `limit` bytes. On a real socket it reads the
 * Node request directly, which spares building a web Request and stream for every call.
 */
export async function readBodyText(c: Context, limit: number): Promise<string> {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (!incoming) {
    const declared = Number(c.req.header('content-length') ?? Number.NaN);
    if (declared > limit) throw tooLarge(limit);
    const text = await c.req.text();
    const bytes = Buffer.byteLength(text);
    if (bytes > limit) throw tooLarge(limit);
    if (bytes >= LARGE_BODY_BYTES) await largeBodies.take();
    return text;
  }
  return readIncomingText(incoming, limit);
}

/** The body of a Node request as text, at most `limit` bytes (413 beyond, before reading when declared). */
export function readIncomingText(incoming: IncomingMessage, limit: number): Promise<string> {
  const declared = Number(incoming.headers['content-length'] ?? Number.NaN);
  if (declared > limit) return Promise.reject(tooLarge(limit));
  // Plain events: an async iterator costs a promise per chunk on the hottest path.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        incoming.off('data', onData);
        incoming.resume();
        reject(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    };
    incoming.on('data', onData);
    const text = () => (chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks, size).toString('utf8'));
    // A large body is decoded, parsed and checked in a turn of its own (see turns.ts).
    incoming.once('end', () => (size < LARGE_BODY_BYTES ? resolve(text()) : void largeBodies.take().then(() => resolve(text()))));
    // A caller that hangs up mid-body is no fault of ours: it gets no answer and no error log line.
    incoming.once('error', () => reject(new GatewayError('bad_request', 'The client closed the connection before the whole body arrived')));
  });
}

/** Fires when the caller goes away before the answer is sent, so upstream work can stop. */
export function callerGone(c: Context): CancelSignal | undefined {
  const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
  return outgoing ? responseClosed(outgoing) : undefined;
}

export function responseClosed(outgoing: ServerResponse): CancelSignal {
  const gone = new Cancellation();
  // 'close' fires once per response; the listener goes with it.
  outgoing.on('close', () => {
    if (!outgoing.writableFinished) gone.abort(new Error('the caller disconnected'));
  });
  return gone;
}
