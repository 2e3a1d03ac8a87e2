import { TextDecoder } from 'node:util';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { classifyTransportError } from './http';
import { UpstreamError } from './upstream-error';
import type { CancelSignal } from '../cancel';

/** The most one event (or one unterminated line) may buffer, in UTF-16 units, before the stream is refused. */
export const MAX_EVENT_CHARS = 16 * 1024 * 1024;
/** How long a body may stay open after its reader has what it needs (OpenAI's [DONE]) before it is cut. */
export const DRAIN_MS = 5_000;
/** What `onEvent` returns when the stream has said all it will ("[DONE]"): the rest is read and ignored. */
export const FINISHED = true;

/** What `readSse` reads: a response body with Node's `data`/`end`/`error` events (an `UpstreamBody`, or any Readable). */
export interface SseBody {
  on(event: 'data', listener: (chunk: Buffer | Uint8Array | string) => void): unknown;
  on(event: 'error', listener: (error: unknown) => void): unknown;
  once(event: 'end', listener: () => void): unknown;
  off(event: 'data', listener: (chunk: Buffer | Uint8Array | string) => void): unknown;
  off(event: 'end', listener: () => void): unknown;
  destroy(): unknown;
}

/**
 * Server-sent events from a response body, handed to `onEvent` in order as they complete: each
 * event's `data` (multi-line data joined with "\n") and its `event` name. Lines may end in LF, CRLF
 * or CR alone; bytes are decoded as a stream, so a UTF-8 character split across network reads
 * stays whole. Comments, `id` and `retry` are skipped. An event still open when the body ends is
 * delivered, as providers end streams without the final blank line.
 *
 * Resolves when the body has ended, or as soon as `onEvent` returns FINISHED; the rest of the body
 * is then read and dropped (cut after DRAIN_MS), so the connection goes back to its pool whole.
 * `onEvent` throwing stops the read: the body is destroyed and the promise rejects with what it threw.
 * The body is read with `data` events rather than an async iterator: no promise per chunk, and no
 * error (with its stack) made when a reader stops before the end.
 */
export function readSse(body: SseBody, signal: CancelSignal, onEvent: (data: string, event: string | null) => boolean | void): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    // Set once the promise has settled: an error, or the reader finished before the body did.
    let failed = false;
    let finished = false;
    const parser = createParser({
      onEvent: (message: EventSourceMessage) => {
        if (failed || finished) return;
        if (onEvent(message.data, message.event ?? null) === FINISHED) finish();
      },
      onError: (error) => {
        if (error.type === 'max-buffer-size-exceeded') throw new UpstreamError('invalid_response', `stream event longer than ${MAX_EVENT_CHARS} characters`);
      },
      maxBufferSize: MAX_EVENT_CHARS,
    });
    // Made on the first read that ends inside a character; until then a read ending in an ASCII
    // byte (nearly all: events end in a newline) is decoded whole, which is several times cheaper.
    let decoder = null as TextDecoder | null;
    const decode = (chunk: Buffer | Uint8Array | string): string => {
      if (typeof chunk === 'string') return chunk;
      if (decoder === null) {
        if (chunk.length === 0 || chunk[chunk.length - 1]! < 0x80) return Buffer.prototype.toString.call(chunk, 'utf8');
        decoder = new TextDecoder('utf-8');
      }
      return decoder.decode(chunk, { stream: true });
    };
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      body.off('data', onData);
      body.off('end', onEnd);
      // The error listener stays, so the error destroying the body makes is not unhandled.
      body.destroy();
      reject(error);
    };
    const finish = () => {
      finished = true;
      const cut = setTimeout(() => body.destroy(), DRAIN_MS);
      cut.unref();
      body.once('end', () => clearTimeout(cut));
      resolve();
    };
    const onData = (chunk: Buffer | Uint8Array | string) => {
      if (failed || finished) return;
      try {
        const text = decode(chunk);
        if (text !== '') parser.feed(text);
      } catch (error) {
        fail(error);
      }
    };
    const onEnd = () => {
      if (failed || finished) return;
      try {
        // Bytes of an unfinished character become U+FFFD; an open line and event are closed.
        parser.feed(`${decoder?.decode() ?? ''}\n\n`);
      } catch (error) {
        fail(error);
        return;
      }
      resolve();
    };
    body.on('data', onData);
    body.once('end', onEnd);
    body.on('error', (error: unknown) => {
      if (!finished) fail(classifyTransportError(error, signal));
    });
  });
}
