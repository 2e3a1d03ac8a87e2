import { describe, expect, it } from 'vitest';
import { Cancellation } from './cancel';

describe('Cancellation', () => {
  it('runs each listener once with the reason set, never one removed or added after the abort', () => {
    const c = new Cancellation();
    const calls: string[] = [];
    const a = () => calls.push(`a:${String((c.reason as Error).message)}`);
    const b = () => calls.push('b');
    c.addEventListener('abort', a);
    c.addEventListener('abort', b);
    c.removeEventListener('abort', b);
    expect(c.aborted).toBe(false);
    c.abort(new Error('gone'));
    c.abort(new Error('again'));
    c.addEventListener('abort', () => calls.push('late'));
    expect(calls).toEqual(['a:gone']);
    expect(c.aborted).toBe(true);
    expect((c.reason as Error).message).toBe('gone');
  });

  it('without a reason, aborts with an AbortError like AbortController', () => {
    const c = new Cancellation();
    c.abort();
    expect((c.reason as DOMException).name).toBe('AbortError');
  });
});
