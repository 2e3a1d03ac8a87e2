/**
 * How the simulated providers count tokens, in one place: the chat hosts count four characters a
 * token per message plus OpenAI's rule per image (catalog/image-tokens.ts); the decision hosts count
 * four characters a token of the state plus 40 per question. Estimates read these rules for the
 * simulated endpoints, as they would read a real provider's published ones.
 */
import { imageTokens } from '../catalog/image-tokens';

/** image-size, loaded with the first image read (an idle server holds none). */
import { imageSize } from '../images/image-size';

export const CHARS_PER_TOKEN = 4;
/** What a simulated decision host adds per question (its instructions and framing). */
export const NATIVE_TOKENS_PER_QUESTION = 40;
/** Shortest shared prefix a simulated provider caches, and the step of the cached part (OpenAI's rule). */
export const CACHE_MIN_TOKENS = 1024;
export const CACHE_STEP_TOKENS = 128;

export const textTokens = (characters: number): number => Math.max(1, Math.ceil(characters / CHARS_PER_TOKEN));

/** Width and height of a data: URL image, read from its header; null when unreadable. */
export function dataUrlSize(url: string): { width: number; height: number } | null {
  const comma = url.indexOf(',');
  if (!url.startsWith('data:image/') || comma < 0) return null;
  try {
    // The header is within the first few kilobytes of any PNG, JPEG, GIF or WebP.
    const head = url.slice(comma + 1, comma + 1 + 65_536);
    const size = imageSize(Buffer.from(head.slice(0, head.length - (head.length % 4)), 'base64'));
    return size.width && size.height ? { width: size.width, height: size.height } : null;
  } catch {
    return null;
  }
}

/** Input tokens of a chat request: each message's text, and each image by its size. */
export function chatPromptTokens(messages: readonly { characters: number; images: readonly ({ width: number; height: number } | null)[] }[]): number {
  return messages.reduce((n, m) => n + textTokens(m.characters) + m.images.reduce((s, size) => s + (size ? imageTokens(size.width, size.height) : 0), 0), 0);
}

/** Prompt tokens read from the cache for a shared prefix of `tokens` seen before: none below the minimum, else whole steps. */
export const cachedPrefixTokens = (tokens: number): number => (tokens < CACHE_MIN_TOKENS ? 0 : Math.floor(tokens / CACHE_STEP_TOKENS) * CACHE_STEP_TOKENS);

/** Input tokens a simulated decision host bills: its state's text and a fixed amount per question. */
export const nativePromptTokens = (stateCharacters: number, questions: number): number => textTokens(stateCharacters) + questions * NATIVE_TOKENS_PER_QUESTION;
