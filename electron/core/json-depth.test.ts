import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonTextTooDeepAt, valueTooDeepAt } from './json-depth';

describe('jsonTextTooDeepAt', () => {
  it('counts brackets outside strings only, whatever the strings hold', () => {
    // Depth 2 in structure; the strings hold brackets, escaped quotes and runs of backslashes.
    const text = String.raw`{"a": ["[[[[", "\"{{{", "ends in a backslash \\", "\\\"[[["]}`;
    expect(JSON.parse(text)).toBeTruthy();
    expect(jsonTextTooDeepAt(text, 2)).toBe(-1);
    expect(jsonTextTooDeepAt(text, 1)).toBe(text.indexOf('['));
  });

  it('names the offset of the first bracket past the limit', () => {
    const text = '[[["x", [1]]]]';
    expect(jsonTextTooDeepAt(text, 3)).toBe(text.indexOf('[1'));
    expect(jsonTextTooDeepAt(text, 4)).toBe(-1);
  });

  it('an unterminated string ends the scan without a verdict (the parser reports it)', () => {
    expect(jsonTextTooDeepAt('[["abc', 1)).toBe(1);
    expect(jsonTextTooDeepAt('["[[[[[[', 1)).toBe(-1);
  });

  it('agrees with the depth of the parsed value for any JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 0, max: 9 }), (value, max) => {
        const text = JSON.stringify(value);
        expect(jsonTextTooDeepAt(text, max) === -1).toBe(valueTooDeepAt(value, max) === null);
      }),
      { numRuns: 2000 },
    );
  });
});
