import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context } from 'hono';
import { Cancellation, type CancelSignal, GatewayError } from '../core';
import { LARGE_BODY_BYTES, largeBodies } from './turns';
import type { BodyMemory } from './body-memory';
import { parseJsonText } from './http-errors';
import { parseJsonBytes } from './json-bytes';
import { bodyBuffers } from './body-buffers';

const tooLarge = (limit: number) =>
  new GatewayError('payload_too_large', `The request body is larger than this server's limit of ${limit} bytes`, { metadata: { limit_bytes: limit } });

/**
 * Reads a request body as text, refusing more than `limit` bytes. On a real socket it reads the
 * Node request directly, which spares building a web Request and stream for every call, and holds a
 * large body within the server's body memory until its answer is done.
 */
export async function readBodyText(c: Context, limit: number, memory?: BodyMemory): Promise<string> {
  return asText(await readBody(c, limit, memory));
}

/** Reads a request body as `readBodyText` does and parses it as JSON (`parseJsonText`'s errors); a large one from its bytes. */
export async function readBodyJson(c: Context, limit: number, memory: BodyMemory | undefined, what: string): Promise<unknown> {
  return asJson(await readBody(c, limit, memory), what);
}

/** The body as text when it is small, as bytes when it is large. */
async function readBody(c: Context, limit: number, memory: BodyMemory | undefined): Promise<string | LargeBody> {
  const env = c.env as { incoming?: IncomingMessage; outgoing?: ServerResponse } | undefined;
  const incoming = env?.incoming;
  if (!incoming) {
    const declared = Number(c.req.header('content-length') ?? Number.NaN);
    if (declared > limit) throw tooLarge(limit);
    const text = await c.req.text();
    const bytes = Buffer.byteLength(text);
    if (bytes > limit) throw tooLarge(limit);
    if (bytes >= LARGE_BODY_BYTES) await largeBodies.take();
    return text;
  }
  return readIncoming(incoming, limit, memory && env.outgoing ? { memory, until: env.outgoing } : undefined);
}

/** Where a large body's bytes are reserved, and the answer whose end gives them back. */
export interface BodyHold {
  memory: BodyMemory;
  until: ServerResponse;
}

/** Reserves `bytes` in the body memory until `hold.until` has closed (answered, or its caller gone). */
async function reserve(hold: BodyHold, bytes: number): Promise<void> {
  const release = await hold.memory.reserve(bytes);
  if (hold.until.closed) release();
  else hold.until.once('close', release);
}

/**
 * The body of a Node request as text, at most `limit` bytes (413 beyond, before reading when
 * declared). With `hold`, a large body is read only once its bytes fit in the body memory: its
 * declared length before the first byte is read; without one (chunked), once it grows large, the
 * body limit or the whole budget, whichever is less.
 */
export async function readIncomingText(incoming: IncomingMessage, limit: number, hold?: BodyHold): Promise<string> {
  return asText(await readIncoming(incoming, limit, hold));
}

/** Reads a Node request's body as `readIncomingText` does and parses it as JSON (`parseJsonText`'s errors); a large one from its bytes. */
export async function readIncomingJson(incoming: IncomingMessage, limit: number, hold: BodyHold | undefined, what: string): Promise<unknown> {
  return asJson(await readIncoming(incoming, limit, hold), what);
}

/** A large body's bytes, and what to call once nothing reads them any more (their buffer is used again). */
interface LargeBody {
  bytes: Buffer;
  done(): void;
}

function asText(body: string | LargeBody): string {
  if (typeof body === 'string') return body;
  const text = body.bytes.toString('utf8');
  body.done();
  return text;
}

function asJson(body: string | LargeBody, what: string): unknown {
  if (typeof body === 'string') return parseJsonText(body, what);
  try {
    // What it makes of the bytes are copies: their buffer can be used for the next body at once.
    return parseJsonBytes(body.bytes, what);
  } finally {
    body.done();
  }
}

const notKept = () => undefined;

/** The body of a Node request: a small one as text, a large one (LARGE_BODY_BYTES and more) as its bytes. */
async function readIncoming(incoming: IncomingMessage, limit: number, hold?: BodyHold): Promise<string | LargeBody> {
  const declared = Number(incoming.headers['content-length'] ?? Number.NaN);
  if (declared > limit) throw tooLarge(limit);
  const reserved = hold !== undefined && declared >= LARGE_BODY_BYTES;
  if (reserved) await reserve(hold, declared);
  // Plain events: an async iterator costs a promise per chunk on the hottest path.
  return new Promise<string | LargeBody>((resolve, reject) => {
    // A large declared body is copied into one buffer as it comes: each chunk is garbage at once,
    // where holding them all and joining them at the end held the body twice. The buffer is one
    // used before when one fits, and is given back once the body is read (not when it is refused:
    // then it is left to the collector).
    let whole = declared >= LARGE_BODY_BYTES ? bodyBuffers.take(declared) : null;
    let chunks: Buffer[] = [];
    let size = 0;
    let growing = hold !== undefined && !reserved;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        incoming.off('data', onData);
        incoming.resume();
        reject(tooLarge(limit));
        return;
      }
      // Node's parser hands on no more than Content-Length says; `whole` holds that many.
      if (whole) chunk.copy(whole, size - chunk.length);
      else chunks.push(chunk);
      if (growing && size >= LARGE_BODY_BYTES) {
        growing = false;
        incoming.pause();
        reserve(hold!, Math.min(limit, hold!.memory.budgetBytes)).then(
          () => incoming.resume(),
          (error: unknown) => {
            incoming.off('data', onData);
            reject(error);
          },
        );
      }
    };
    incoming.on('data', onData);
    // The bytes are let go once handed on: the request (and these listeners) live until it is answered.
    const large = (): LargeBody => {
      const buffer = whole;
      const body = buffer ? { bytes: buffer.subarray(0, size), done: () => bodyBuffers.give(buffer) } : { bytes: Buffer.concat(chunks, size), done: notKept };
      whole = null;
      chunks = [];
      return body;
    };
    const text = () => {
      const decoded = chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks, size).toString('utf8');
      chunks = [];
      return decoded;
    };
    // A large body is decoded, parsed and checked in a turn of its own (see turns.ts).
    incoming.once('end', () => (size < LARGE_BODY_BYTES ? resolve(text()) : void largeBodies.take().then(() => resolve(large()))));
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
