import { classifyTransportError } from './http';
import type { CancelSignal } from '../cancel';

/**
 * Server-sent events from a response body: yields each event's `data` payload (multi-line
 * data joined). Comments and other fields are skipped.
 */
export async function* sseData(body: AsyncIterable<Buffer | string>, signal: CancelSignal): AsyncGenerator<{ event: string | null; data: string }> {
  let buffer = '';
  let data: string[] = [];
  let event: string | null = null;
  try {
    for await (const chunk of body) {
      buffer += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
      let newline: number;
      while ((newline = buffer.indexOf('\n')) !== -1) {
        const line = buffer.slice(0, newline).replace(/\r$/, '');
        buffer = buffer.slice(newline + 1);
        if (line === '') {
          if (data.length > 0) yield { event, data: data.join('\n') };
          data = [];
          event = null;
        } else if (line.startsWith('data:')) {
          data.push(line.slice(5).replace(/^ /, ''));
        } else if (line.startsWith('event:')) {
          event = line.slice(6).trim();
        }
      }
    }
  } catch (error) {
    throw classifyTransportError(error, signal);
  }
  if (data.length > 0) yield { event, data: data.join('\n') };
}
