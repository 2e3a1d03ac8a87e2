import { randomBytes } from 'node:crypto';
import { isBase64 } from '../core';
import { parseJsonText } from './http-errors';

/** Strings at least this many bytes long are read from the body's bytes on their own. */
export const LONG_STRING_BYTES = 64 * 1024;

/** A data: URL's head ("data:image/png;base64,"), read from its first bytes. */
const DATA_URL_HEAD = /^data:[\w.+-]+\/[\w.+-]+;base64,/;

/** How many quotes are looked at for long strings before the rest of a body is left to be parsed as text. */
const MAX_QUOTES_LOOKED_AT = 8192;

// A per-process marker no caller can know, so no string a caller sends is taken for one of ours.
const MARK = `verdict-long-string-${randomBytes(8).toString('hex')}-`;

/**
 * A large JSON request body parsed from its bytes, as `parseJsonText` would parse their text, with
 * the same errors. An image sent as base64 is most of such a body: decoded whole into text and
 * parsed, its megabytes were copied twice (the body's text, then the string JSON.parse makes of it),
 * and read twice more. Here each long string of base64 (a data: URL, or bare) is read once, straight
 * from the bytes, and the rest of the body, now small, is parsed as text. A body whose rest does not
 * parse is parsed whole again, so a malformed one is named exactly where it broke.
 */
export function parseJsonBytes(bytes: Buffer, what: string): unknown {
  const long = longBase64Strings(bytes);
  if (long.length === 0) return parseJsonText(bytes.toString('utf8'), what);
  let rest = '';
  let from = 0;
  long.forEach(({ start, end }, index) => {
    rest += `${bytes.toString('utf8', from, start)}${MARK}${index}`;
    from = end;
  });
  rest += bytes.toString('utf8', from);
  let value: unknown;
  try {
    value = parseJsonText(rest, what);
  } catch {
    return parseJsonText(bytes.toString('utf8'), what);
  }
  return restore(
    value,
    long.map((l) => l.text),
  );
}

/**
 * Where the body's long string values of base64 are (between their quotes), each with its text. The
 * quotes are paired as a JSON reader pairs them: outside a string a quote opens one; inside, the
 * next quote not escaped closes it. A string is taken only when all of it is base64 (after a data:
 * URL's head): nothing in it needs unescaping, and it is valid inside JSON quotes, so putting a
 * marker in its place changes nothing else about the body. Object keys are left in place.
 */
function longBase64Strings(bytes: Buffer): { start: number; end: number; text: string }[] {
  const found: { start: number; end: number; text: string }[] = [];
  let open = bytes.indexOf(0x22 /* " */);
  // Looking costs a step per quote: a body of millions of short strings (or of escaped quotes) is
  // parsed as it is after the first few thousand (any long string further on is read as part of the text).
  let steps = 0;
  while (open !== -1) {
    let close = bytes.indexOf(0x22, open + 1);
    while (close !== -1 && escaped(bytes, close) && steps < MAX_QUOTES_LOOKED_AT) {
      close = bytes.indexOf(0x22, close + 1);
      steps += 1;
    }
    steps += 1;
    if (close === -1 || steps >= MAX_QUOTES_LOOKED_AT) break;
    const start = open + 1;
    if (close - start >= LONG_STRING_BYTES && !isKey(bytes, close + 1)) {
      const text = bytes.toString('latin1', start, close);
      const head = DATA_URL_HEAD.exec(text.slice(0, 128))?.[0].length ?? 0;
      if (isBase64(text, head)) found.push({ start, end: close, text });
    }
    open = bytes.indexOf(0x22, close + 1);
  }
  return found;
}

/** Whether the quote at `at` is escaped: an odd number of backslashes before it. */
function escaped(bytes: Buffer, at: number): boolean {
  let backslashes = 0;
  while (at - 1 - backslashes >= 0 && bytes[at - 1 - backslashes] === 0x5c /* \ */) backslashes += 1;
  return backslashes % 2 === 1;
}

/** Whether the string ending before `at` is an object's key: a colon is the next thing after it but blanks. */
function isKey(bytes: Buffer, at: number): boolean {
  let i = at;
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x09)) i += 1;
  return bytes[i] === 0x3a; /* : */
}

/** The parsed value with each marker put back as the string it stands for. Iterative: the value may nest deep. */
function restore(value: unknown, texts: readonly string[]): unknown {
  const back = (v: unknown): unknown => (typeof v === 'string' && v.startsWith(MARK) ? (texts[Number(v.slice(MARK.length))] ?? v) : v);
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i += 1) {
        node[i] = back(node[i]);
        if (typeof node[i] === 'object' && node[i] !== null) stack.push(node[i]);
      }
    } else if (typeof node === 'object' && node !== null) {
      const record = node as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        record[key] = back(record[key]);
        if (typeof record[key] === 'object' && record[key] !== null) stack.push(record[key]);
      }
    }
  }
  return back(value);
}
