import { describe, expect, it } from 'vitest';
import { countTokens } from './tokens';

/**
 * OpenAI's o200k_base as js-tiktoken (a port of OpenAI's tiktoken) counts it: the reference the
 * counts must match. Built once: building it reads 200,000 ranks (about a second each time).
 */
let referenceEncoder: Promise<{ encode: (text: string, allowed: string[], disallowed: string[]) => number[] }> | null = null;
async function reference(text: string): Promise<number> {
  referenceEncoder ??= Promise.all([import('js-tiktoken/lite'), import('js-tiktoken/ranks/o200k_base')]).then(
    ([{ Tiktoken }, ranks]) => new Tiktoken(ranks.default),
  );
  return (await referenceEncoder).encode(text, [], []).length;
}

describe('countTokens', () => {
  it('counts as OpenAI o200k_base does, across scripts, emoji, code, numbers and whitespace', async () => {
    const texts = [
      'Was the parcel late?',
      'Überweisung fehlgeschlagen — 残高不足 🙁. The parcel came two days late, and nobody called.',
      '👩‍👩‍👧‍👦 and 🇫🇷; Ελληνικά και русский текст; données «naïve» café',
      'function f(x) { return x ** 2; } // 1234567890 3.14159 1e-10',
      '  spaces   and\n\n\ttabs\r\n',
      JSON.stringify({ state: [{ type: 'text', text: 'a' }], expected: { late: true } }),
    ];
    for (const text of texts) expect(await countTokens(text)).toBe(await reference(text));
  });

  it('counts special-token text in a state as plain text instead of refusing it', async () => {
    const text = 'A user pasted <|endoftext|> and <|fim_prefix|> into the ticket.';
    expect(await countTokens(text)).toBe(await reference(text));
    expect(await countTokens(text)).toBeGreaterThan(10);
  });

  it('is 0 only for empty text', async () => {
    expect(await countTokens('')).toBe(0);
    expect(await countTokens(' ')).toBe(1);
  });
});
