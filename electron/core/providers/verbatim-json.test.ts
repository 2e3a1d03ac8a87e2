import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringifyBody, verbatim } from './verbatim-json';

describe('stringifyBody', () => {
  it('writes the same JSON as JSON.stringify, with verbatim strings in their places', () => {
    const base64 = () => fc.uint8Array({ minLength: 0, maxLength: 40 }).map((b) => `data:image/png;base64,${Buffer.from(b).toString('base64')}`);
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.jsonValue({ maxDepth: 3 }), base64()), { maxLength: 5 }), fc.string(), (items, text) => {
        const plain = { text, items: items.map(([value, url]) => ({ value, image_url: { url } })) };
        const wrapped = { text, items: items.map(([value, url]) => ({ value, image_url: { url: verbatim(url) } })) };
        expect(stringifyBody(wrapped)).toBe(JSON.stringify(plain));
      }),
      { numRuns: 500 },
    );
  });

  it('a caller text that imitates a placeholder stays the caller text', () => {
    const image = `data:image/jpeg;base64,${randomBytes(30).toString('base64')}`;
    const body = { a: '\u0000verbatim-0000000000000000-0', b: verbatim(image), c: '\u00000"' };
    expect(JSON.parse(stringifyBody(body))).toEqual({ a: body.a, b: image, c: body.c });
  });

  it('plain JSON.stringify of a body with verbatim strings still writes them', () => {
    expect(JSON.stringify({ url: verbatim('data:image/gif;base64,R0lG') })).toBe('{"url":"data:image/gif;base64,R0lG"}');
  });
});
