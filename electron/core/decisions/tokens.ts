type Encode = (text: string, options: { allowedSpecial: Set<string>; disallowedSpecial: Set<string> }) => number[];

let encoder: Promise<Encode> | null = null;
/** Special-token text ("<|endoftext|>") in a state is counted as the plain text it is, never refused. */
const PLAIN = { allowedSpecial: new Set<string>(), disallowedSpecial: new Set<string>() };

/**
 * Token count with a real BPE tokenizer (o200k_base, as OpenAI's current models use; gpt-tokenizer,
 * about 0.2 s and 25 MB to load on first use, against 0.8-1 s and 75-100 MB for js-tiktoken's). For
 * other families it is an estimate, which is why usage counted here is marked estimated; still far
 * closer than none, and never 0 for text that exists.
 */
export async function countTokens(text: string): Promise<number> {
  encoder ??= import('gpt-tokenizer/encoding/o200k_base').then((m) => m.encode as Encode);
  const tokens = (await encoder)(text, PLAIN).length;
  return text.length > 0 ? Math.max(1, tokens) : 0;
}
