import { randomBytes } from 'node:crypto';

/**
 * Request bodies as JSON text, with long strings written in without being read again for escapes.
 * JSON.stringify reads every character of every string to escape it: about 7 ms for a megapixel
 * image's 2 MB of base64 on our machines, on every call that carries one; and a long state asked
 * six questions was escaped six times. A Verbatim value stands in for such a string: its JSON
 * (the string's contents, escaped) is known, and `stringifyBody` writes a placeholder for it and
 * splices that JSON in after, which costs a few string joins.
 */

/**
 * A string whose JSON form (its contents between the quotes, escaped) is known, kept as the parts it
 * is made of: a data: URL's head and its megabytes of base64 are written one after the other, never
 * joined into a copy of both.
 */
export class Verbatim {
  /** `parts`: the escaped contents, in order; `plain`: the string itself, made on demand. */
  constructor(
    readonly parts: readonly string[],
    private readonly plain: () => string = () => parts.join(''),
  ) {}

  /** What plain JSON.stringify writes (tests and logs still see the value). */
  toJSON(): string {
    if (pending !== null) return placeholder(pending.push(this.parts) - 1);
    return this.plain();
  }
}

/**
 * base64 (A-Z a-z 0-9 + / =) with a media-type prefix, as a data: URL or bare, in the parts it is
 * made of. The caller vouches for the characters: the state was validated as base64
 * (decisions/state.ts) and media types come from a fixed list.
 */
export const verbatim = (...parts: string[]): Verbatim => new Verbatim(parts);

/** Texts shorter than this are escaped by JSON.stringify as usual: remembering them costs more than it saves. */
const LONG = 1024;
/** Escaped long texts, keyed by the text (V8 keeps a string's hash, so a text seen before is found at once). */
const escaped = new Map<string, string>();
let escapedChars = 0;
/** The most characters of escaped text kept; beyond it the memory starts again. */
const MAX_ESCAPED_CHARS = 8_000_000;

function escapeOnce(text: string): string {
  if (text.length < LONG) return JSON.stringify(text).slice(1, -1);
  let json = escaped.get(text);
  if (json === undefined) {
    json = JSON.stringify(text).slice(1, -1);
    if (escapedChars + text.length + json.length > MAX_ESCAPED_CHARS) {
      escaped.clear();
      escapedChars = 0;
    }
    escaped.set(text, json);
    escapedChars += text.length + json.length;
  }
  return json;
}

/**
 * Texts joined into one JSON string value. When any is long (the shared state), their escaped
 * forms are remembered and joined, so a state asked several questions is escaped once; short
 * texts are simply joined.
 */
export function joinedText(texts: readonly string[]): string | Verbatim {
  if (!texts.some((t) => t.length >= LONG)) return texts.join('');
  return new Verbatim(texts.map(escapeOnce), () => texts.join(''));
}

// A per-process marker that no caller can know, so no text a caller sends can be taken for a placeholder.
const MARK = `\u0000verbatim-${randomBytes(8).toString('hex')}-`;
const placeholder = (index: number) => `${MARK}${index}`;
/** How the marker comes out of JSON.stringify: the NUL escaped as \u0000, inside quotes. */
const WRITTEN_MARK = JSON.stringify(MARK).slice(1, -1);

let pending: (readonly string[])[] | null = null;

/** JSON.stringify(body) in pieces: the JSON around each Verbatim, and each Verbatim's text, in order. */
function pieces(body: unknown): string[] {
  const texts: (readonly string[])[] = [];
  pending = texts;
  let json: string;
  try {
    json = JSON.stringify(body);
  } finally {
    pending = null;
  }
  if (texts.length === 0) return [json];
  const out: string[] = [];
  let from = 0;
  for (let index = 0; index < texts.length; index += 1) {
    const written = `${WRITTEN_MARK}${index}"`;
    const at = json.indexOf(written, from);
    out.push(json.slice(from, at), ...texts[index]!);
    // The closing quote stays: the placeholder replaced only the string's contents.
    from = at + written.length - 1;
  }
  out.push(json.slice(from));
  return out;
}

/** JSON.stringify(body), with each Verbatim's text spliced in without being read for escapes. */
export function stringifyBody(body: unknown): string {
  return pieces(body).join('');
}

/** Bodies shorter than this (in characters) are sent as one string. */
const JOINED_CHARS = 8 * 1024;

/** A body as the strings it is made of, in order, and its length in UTF-8 bytes (its Content-Length). */
export class BodyPieces {
  constructor(
    readonly pieces: readonly string[],
    readonly byteLength: number,
  ) {}
}

/** A body as the HTTP client takes it: one string, bytes, or the strings it is made of. */
export type SentBody = string | Buffer | BodyPieces;

/**
 * The same JSON to send, never joined into one string first: joined, a body carrying an image was
 * its megabytes copied once more only to be encoded and dropped. A small body, or one with no
 * Verbatim in it, is a string; a mid-sized one (a long state asked several questions) is written
 * into bytes cut from a shared block; a larger one (an image) goes to the HTTP client as its pieces.
 * The socket encodes those into memory of its own and frees it as soon as they are written, where
 * a buffer of the body's own (megabytes a call) stayed until the runtime next collected: on the box
 * path, about 16 MiB of the gateway's median peak at 50 callers (docs/BENCHMARKS.md).
 */
export function bodyToSend(body: unknown): SentBody {
  const parts = pieces(body);
  if (parts.length === 1) return parts[0]!;
  let chars = 0;
  for (const part of parts) chars += part.length;
  // A small body is joined: one short string costs less to hand over than several writes into bytes.
  if (chars < JOINED_CHARS) return parts.join('');
  let length = 0;
  for (const part of parts) length += Buffer.byteLength(part, 'utf8');
  if (length > CARVED_BYTES) return new BodyPieces(parts, length);
  const bytes = carve(length);
  let at = 0;
  for (const part of parts) at += bytes.write(part, at, 'utf8');
  return bytes;
}

/** Bodies up to a quarter of this are cut from one shared block of memory, as Node's own pool does for small buffers. */
const SLAB_BYTES = 256 * 1024;
/** The largest body cut from the shared block; larger ones are sent as their pieces. */
const CARVED_BYTES = SLAB_BYTES / 4;
let slab: Buffer | null = null;
let slabUsed = 0;

/**
 * `length` bytes (at most CARVED_BYTES) for a body. A body of tens of kilobytes (a long state asked
 * several questions) had a block of memory of its own, thousands a second at load, which the runtime
 * frees only when it next collects; cut from a shared block, they are a few dozen blocks a second.
 */
function carve(length: number): Buffer {
  if (slab === null || slabUsed + length > SLAB_BYTES) {
    slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
    slabUsed = 0;
  }
  const bytes = slab.subarray(slabUsed, slabUsed + length);
  // The next body starts on an 8-byte boundary, as Node's pool aligns its buffers.
  slabUsed += (length + 7) & ~7;
  return bytes;
}
