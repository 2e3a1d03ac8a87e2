import { TextDecoder } from 'node:util';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { classifyTransportError } from './http';
import { UpstreamError } from './upstream-error';
import type { CancelSignal } from '../cancel';

/** The most one event (or one unterminated line) may buffer, in UTF-16 units, before the stream is refused. */
export const MAX_EVENT_CHARS = 16 * 1024 * 1024;

/**
 * Server-sent events from a response body: yields each event's `data` payload (multi-line data
 * joined with "\n") and its `event` name. Lines may end in LF, CRLF or CR alone; bytes are decoded
 * as a stream, so a UTF-8 character split across network reads stays whole. Comments, `id` and
 * `retry` are skipped. An event still open when the body ends is delivered, as providers end
 * streams without the final blank line.
 */
export async function* sseData(body: AsyncIterable<Buffer | Uint8Array | string>, signal: CancelSignal): AsyncGenerator<{ event: string | null; data: string }> {
  const ready: { event: string | null; data: string }[] = [];
  let overflow = false;
  const parser = createParser({
    onEvent: (message: EventSourceMessage) => {
      ready.push({ event: message.event ?? null, data: message.data });
    },
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') overflow = true;
    },
    maxBufferSize: MAX_EVENT_CHARS,
  });
  // Made on the first read that ends inside a character; until then a read ending in an ASCII
  // byte (nearly all: events end in a newline) is decoded whole, which is several times cheaper.
  let decoder = null as TextDecoder | null;
  const decode = (bytes: Uint8Array): string => {
    if (decoder === null) {
      if (bytes.length === 0 || bytes[bytes.length - 1]! < 0x80) return Buffer.prototype.toString.call(bytes, 'utf8');
      decoder = new TextDecoder('utf-8');
    }
    return decoder.decode(bytes, { stream: true });
  };
  const feed = (text: string) => {
    if (text !== '') parser.feed(text);
    if (overflow) throw new UpstreamError('invalid_response', `stream event longer than ${MAX_EVENT_CHARS} characters`);
  };
  try {
    for await (const chunk of body) {
      feed(typeof chunk === 'string' ? chunk : decode(chunk));
      if (ready.length > 0) {
        // Events are handed over in order; a consumer that stops early leaves the rest unread.
        for (let i = 0; i < ready.length; i++) yield ready[i]!;
        ready.length = 0;
      }
    }
  } catch (error) {
    throw classifyTransportError(error, signal);
  }
  // Bytes of an unfinished character become U+FFFD; an open line and event are closed.
  feed(`${decoder?.decode() ?? ''}\n\n`);
  for (const event of ready) yield event;
}
