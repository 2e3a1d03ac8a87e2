import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJsonText } from './http-errors';
import { LONG_STRING_BYTES, parseJsonBytes } from './json-bytes';

const long = (n: number) => randomBytes(Math.ceil((LONG_STRING_BYTES * 3) / 4) + n).toString('base64');
const IMAGE = `data:image/png;base64,${long(1)}`;
const BARE = long(2).replace(/=+$/, '');
/** Long strings that are not base64 all through: each must come back exactly as JSON.parse reads it. */
const NOT_BASE64 = [`${long(3)}\n`, `${long(4).slice(0, -4)}é${'A'.repeat(3)}`, `a"b\\${long(5)}`, `data:image/png;base64,${long(6)}-`];

/** What parsing the text alone gives: the value, or the error's message and metadata. */
function outcome(parse: () => unknown): unknown {
  try {
    return { value: parse() };
  } catch (error) {
    const e = error as Error & { toBody?: () => unknown };
    return { error: e.toBody ? e.toBody() : e.message };
  }
}

const same = (text: string) =>
  expect(outcome(() => parseJsonBytes(Buffer.from(text, 'utf8'), 'the request'))).toEqual(outcome(() => parseJsonText(text, 'the request')));

describe('parseJsonBytes', () => {
  // Against the text parser, not JSON.parse: both refuse a key `__proto__`, which the generator
  // makes now and then (JSON.parse would keep it).
  it('reads what the text gives, long strings of base64 in values, keys and arrays among other values', () => {
    const longText = fc.constantFrom(IMAGE, BARE, ...NOT_BASE64);
    const leaf = fc.oneof(fc.jsonValue({ maxDepth: 1 }), longText);
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        leaf,
        fc.array(tie('node'), { maxLength: 3 }),
        fc.dictionary(fc.oneof(fc.string(), longText), tie('node'), { maxKeys: 3 }),
      ),
    })).node;
    fc.assert(
      fc.property(value, fc.constantFrom(0, 2), (v, indent) => {
        same(JSON.stringify(v, null, indent));
      }),
      { numRuns: 300 },
    );
  });

  it('names a malformed body where it broke, as the whole text does, whatever comes before', () => {
    for (const before of [IMAGE, BARE, ...NOT_BASE64]) {
      const ok = JSON.stringify({ state: [{ type: 'image_url', image_url: { url: before } }], questions: { q: { type: 'noul' } } });
      for (const broken of [
        ok.slice(0, -1),
        `${ok.slice(0, -2)},}}`,
        ok.replace('"questions"', 'questions'),
        `${ok}x`,
        ok.replace(`"${before}"`, `"${before}" "x"`),
      ])
        same(broken);
    }
  });

  it('refuses a body nesting too deep after a long string, at the same place', () => {
    same(`{"a":"${IMAGE}","b":${'['.repeat(200)}${']'.repeat(200)}}`);
    same(`\uFEFF{"a":"${BARE}","b":${'{"c":'.repeat(150)}1${'}'.repeat(150)}}`);
  });

  it('reads past a byte order mark, and refuses __proto__ as the text does', () => {
    same(`\uFEFF{"url":"${IMAGE}"}`);
    same(`{"url":"${IMAGE}","__proto__":{"x":1}}`);
    same(`{"url":"${IMAGE}","\\u005f_proto__":{"x":1}}`);
  });

  it('a body of thousands of short strings, or of escaped quotes, before an image is read whole all the same', () => {
    same(JSON.stringify({ tags: Array.from({ length: 10_000 }, (_, i) => `t${i}`), url: IMAGE }));
    same(JSON.stringify({ quoted: '"'.repeat(20_000), url: IMAGE, after: BARE }));
    same(`{"tags":[${'"x",'.repeat(9_000)}"y"],"url":"${IMAGE}",}`);
  });

  it('a string that looks like the marker of another body is the caller’s own string', () => {
    const text = JSON.stringify({ url: IMAGE, other: 'verdict-long-string-0000000000000000-0' });
    expect(parseJsonBytes(Buffer.from(text), 'the request')).toEqual(JSON.parse(text));
  });
});
