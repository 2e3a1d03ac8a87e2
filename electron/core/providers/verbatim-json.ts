import { randomBytes } from 'node:crypto';

/**
 * Request bodies as JSON text, with long strings known to need no escaping (an image's base64)
 * written in as they are. JSON.stringify reads every character of every string to escape it: about
 * 7 ms for a megapixel image's 2 MB of base64 on our machines, on every call that carries one.
 * A Verbatim value stands in for such a string; `stringifyBody` writes a placeholder for it and
 * splices the text in after, which costs a few string joins.
 */

/** A string that JSON needs no escapes for: only characters from 0x20 to 0x7e, none of them `"` or `\`. */
export class Verbatim {
  constructor(readonly text: string) {}

  /** What plain JSON.stringify writes (tests and logs still see the value). */
  toJSON(): string {
    return pending === null ? this.text : placeholder(pending.push(this.text) - 1);
  }
}

/**
 * base64 (A-Z a-z 0-9 + / =) with a media-type prefix, as a data: URL or bare. The caller vouches
 * for the characters: the state was validated as base64 (decisions/state.ts) and media types come
 * from a fixed list.
 */
export const verbatim = (text: string): Verbatim => new Verbatim(text);

// A per-process marker that no caller can know, so no text a caller sends can be taken for a placeholder.
const MARK = `\u0000verbatim-${randomBytes(8).toString('hex')}-`;
const placeholder = (index: number) => `${MARK}${index}`;
/** How the marker comes out of JSON.stringify: the NUL escaped as \u0000, inside quotes. */
const WRITTEN_MARK = JSON.stringify(MARK).slice(1, -1);

let pending: string[] | null = null;

/** JSON.stringify(body), with each Verbatim's text spliced in without being read for escapes. */
export function stringifyBody(body: unknown): string {
  const texts: string[] = [];
  pending = texts;
  let json: string;
  try {
    json = JSON.stringify(body);
  } finally {
    pending = null;
  }
  if (texts.length === 0) return json;
  let out = '';
  let from = 0;
  for (let index = 0; index < texts.length; index += 1) {
    const written = `${WRITTEN_MARK}${index}"`;
    const at = json.indexOf(written, from);
    out += json.slice(from, at) + texts[index]!;
    // The closing quote stays: the placeholder replaced only the string's contents.
    from = at + written.length - 1;
  }
  return out + json.slice(from);
}
