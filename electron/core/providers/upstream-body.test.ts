import { describe, expect, it } from 'vitest';
import { HELD_BYTES, UpstreamBody, type BodySource } from './upstream-body';
import { readSse } from './sse';
import { Cancellation } from '../cancel';

/** The call under a body, recording what the body asked of it. */
function source(): BodySource & { calls: string[] } {
  const calls: string[] = [];
  return { calls, pause: () => calls.push('pause'), resume: () => calls.push('resume'), abort: (reason) => calls.push(`abort: ${reason.message}`) };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('UpstreamBody', () => {
  it('holds what arrives before anyone reads and hands it over in order, then the end', async () => {
    const body = new UpstreamBody();
    body.push(Buffer.from('a'));
    body.push(Buffer.from('b'));
    body.end();
    const seen: string[] = [];
    body.on('data', (chunk: Buffer) => seen.push(chunk.toString()));
    // Listeners attached in the same tick as the first `data` listener see everything.
    body.once('end', () => seen.push('end'));
    expect(seen).toEqual([]);
    await tick();
    expect(seen).toEqual(['a', 'b', 'end']);
  });

  it('passes chunks straight through once read, and emits end once', async () => {
    const body = new UpstreamBody();
    const seen: string[] = [];
    body.on('data', (chunk: Buffer) => seen.push(chunk.toString()));
    body.on('end', () => seen.push('end'));
    await tick();
    body.push(Buffer.from('x'));
    expect(seen).toEqual(['x']);
    body.end();
    body.end();
    expect(seen).toEqual(['x', 'end']);
  });

  it('pauses the connection past HELD_BYTES unread and resumes it when reading starts', async () => {
    const call = source();
    const body = new UpstreamBody();
    body.attach(call);
    body.push(Buffer.alloc(HELD_BYTES));
    expect(call.calls).toEqual([]);
    body.push(Buffer.alloc(1));
    expect(call.calls).toEqual(['pause']);
    let bytes = 0;
    body.on('data', (chunk: Buffer) => (bytes += chunk.length));
    await tick();
    expect(call.calls).toEqual(['pause', 'resume']);
    expect(bytes).toBe(HELD_BYTES + 1);
  });

  it('destroy aborts an unfinished call and nothing is emitted after it', async () => {
    const call = source();
    const body = new UpstreamBody();
    body.attach(call);
    const seen: string[] = [];
    body.on('data', (chunk: Buffer) => seen.push(chunk.toString()));
    body.on('end', () => seen.push('end'));
    await tick();
    body.push(Buffer.from('a'));
    body.destroy();
    body.push(Buffer.from('b'));
    body.end();
    expect(seen).toEqual(['a']);
    expect(call.calls).toEqual(['abort: response body destroyed by its reader']);
  });

  it('destroy after the end aborts nothing (the connection goes back to its pool)', () => {
    const call = source();
    const body = new UpstreamBody();
    body.attach(call);
    body.end();
    body.destroy();
    expect(call.calls).toEqual([]);
  });

  it('an error with no listener yet is held for the first one, not thrown', async () => {
    const body = new UpstreamBody();
    body.on('data', () => undefined);
    await tick();
    expect(() => body.fail(new Error('socket hang up'))).not.toThrow();
    const errors: string[] = [];
    body.on('error', (error: Error) => errors.push(error.message));
    await tick();
    expect(errors).toEqual(['socket hang up']);
  });

  it('text() gives the whole body, a character split across chunks kept whole', async () => {
    const body = new UpstreamBody();
    const bytes = Buffer.from('naïve €');
    const text = body.text();
    body.push(bytes.subarray(0, 3));
    body.push(bytes.subarray(3, 9));
    body.push(bytes.subarray(9));
    body.end();
    expect(await text).toBe('naïve €');
  });

  it('text() rejects with the error that cut the body', async () => {
    const body = new UpstreamBody();
    const text = body.text();
    body.push(Buffer.from('{"par'));
    body.fail(new Error('other side closed'));
    await expect(text).rejects.toThrow('other side closed');
  });

  it('readSse reads events from it across chunk boundaries and stops the call at FINISHED', async () => {
    const call = source();
    const body = new UpstreamBody();
    body.attach(call);
    body.push(Buffer.from('data: {"a":1}\r'));
    body.push(Buffer.from('\n\r\ndata: [DO'));
    const events: string[] = [];
    const read = readSse(body, new Cancellation(), (data) => {
      events.push(data);
      return data === '[DONE]' ? true : undefined;
    });
    body.push(Buffer.from('NE]\n\n'));
    await read;
    expect(events).toEqual(['{"a":1}', '[DONE]']);
    // The rest of the body is read and dropped, so the connection is not cut.
    body.push(Buffer.from(': trailing comment\n'));
    body.end();
    expect(call.calls).toEqual([]);
  });
});
