import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BodyPieces, bodyToSend, joinedText, stringifyBody, verbatim, type SentBody } from './verbatim-json';

/** The bytes a body from bodyToSend puts on the wire. */
const bytesOf = (sent: SentBody): Buffer => (sent instanceof BodyPieces ? Buffer.from(sent.pieces.join(''), 'utf8') : Buffer.from(sent));

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

  it('sends the UTF-8 bytes of that JSON, whatever the texts around the verbatim strings are', () => {
    // Images of a few bytes, of about 20 KB and of about 100 KB: a body under 8 KB is joined, one up
    // to 64 KB is written as bytes in a block shared with other bodies, a larger one is left in pieces.
    const medium = randomBytes(15_000).toString('base64');
    const large = randomBytes(75_000).toString('base64');
    const base64 = fc.oneof(
      fc.uint8Array({ minLength: 1, maxLength: 40 }).map((b) => Buffer.from(b).toString('base64')),
      fc.constant(medium),
      fc.constant(large),
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.array(base64, { maxLength: 3 }), fc.jsonValue({ maxDepth: 2 }), (text, images, value) => {
        const urls = images.map((b) => `data:image/png;base64,${b}`);
        const plain = JSON.stringify({ text, urls, value });
        const sent = bodyToSend({ text, urls: images.map((b) => verbatim('data:', 'image/png', ';base64,', b)), value });
        expect(sent instanceof BodyPieces).toBe(images.includes(large));
        expect(typeof sent === 'string').toBe(!images.includes(large) && !images.includes(medium));
        expect(bytesOf(sent).equals(Buffer.from(plain, 'utf8'))).toBe(true);
        if (sent instanceof BodyPieces) expect(sent.byteLength).toBe(Buffer.byteLength(plain, 'utf8'));
      }),
      { numRuns: 500 },
    );
  });

  it('bodies cut from one shared block keep their own bytes', () => {
    const bodies = Array.from({ length: 40 }, (_, i) => ({ i, url: verbatim(randomBytes(9_000 + i * 37).toString('base64')) }));
    const sent = bodies.map((b) => bodyToSend(b));
    expect(sent.every((b) => Buffer.isBuffer(b))).toBe(true);
    expect(sent.map((b) => JSON.parse(bytesOf(b).toString()) as unknown)).toEqual(bodies.map((b) => JSON.parse(JSON.stringify(b)) as unknown));
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

describe('joinedText', () => {
  it('writes what JSON.stringify writes for the joined text, long or short, escapes and lone surrogates included', () => {
    const text = fc.string({ unit: 'binary', maxLength: 40 });
    const long = fc.tuple(text, fc.integer({ min: 1, max: 60 })).map(([t, n]) => (t || '"\\\n').repeat(n * 40));
    fc.assert(
      fc.property(fc.array(fc.oneof(text, long), { minLength: 1, maxLength: 4 }), (texts) => {
        const body = { messages: [{ role: 'user', content: joinedText(texts) }] };
        const expected = JSON.stringify({ messages: [{ role: 'user', content: texts.join('') }] });
        // Twice: the second time the long texts' escaped forms come from memory.
        expect(stringifyBody(body)).toBe(expected);
        expect(stringifyBody({ messages: [{ role: 'user', content: joinedText(texts) }] })).toBe(expected);
        expect(JSON.stringify(body)).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });
});
