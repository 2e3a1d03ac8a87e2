import type { Tiktoken } from 'js-tiktoken/lite';

let encoder: Promise<Tiktoken> | null = null;

/**
 * Token count with a real BPE tokenizer (o200k_base, as OpenAI's current models use), loaded on
 * first use. For other families it is an estimate, which is why usage counted here is marked
 * estimated; still far closer than none, and never 0 for text that exists.
 */
export async function countTokens(text: string): Promise<number> {
  encoder ??= Promise.all([import('js-tiktoken/lite'), import('js-tiktoken/ranks/o200k_base')]).then(
    ([lite, ranks]) => new lite.Tiktoken((ranks as { default: ConstructorParameters<typeof lite.Tiktoken>[0] }).default),
  );
  const tokens = (await encoder).encode(text).length;
  return text.length > 0 ? Math.max(1, tokens) : 0;
}
