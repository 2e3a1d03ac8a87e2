import type { State } from '../../../shared/schemas/decisions-request';
import type { ContentPart } from '../providers/types';
import { GatewayError } from '../errors';

const DATA_URL = /^data:(image\/(?:png|jpeg|gif|webp));base64,([A-Za-z0-9+/]+={0,2})$/;

/**
 * The request's `state` as content parts: text, and images from OpenAI-style `image_url` parts
 * carrying `data:` URLs. Other URLs are refused: the gateway never fetches a URL a caller names.
 */
export function stateParts(state: State): { parts: ContentPart[]; images: number } {
  if (typeof state === 'string') return { parts: [{ type: 'text', text: state }], images: 0 };
  if (!Array.isArray(state)) return { parts: [{ type: 'text', text: JSON.stringify(state, null, 1) }], images: 0 };
  const parts: ContentPart[] = [];
  let images = 0;
  state.forEach((item, index) => {
    const part = item as { type?: unknown; text?: unknown; image_url?: { url?: unknown } | string };
    if (part && typeof part === 'object' && part.type === 'image_url') {
      const url = typeof part.image_url === 'string' ? part.image_url : part.image_url?.url;
      if (typeof url !== 'string') throw new GatewayError('bad_request', `state[${index}].image_url.url: expected a data: URL string`);
      const match = DATA_URL.exec(url);
      if (!match) {
        const scheme = url.slice(0, url.indexOf(':') + 1) || url.slice(0, 12);
        throw new GatewayError(
          'bad_request',
          url.startsWith('data:')
            ? `state[${index}].image_url.url: expected a base64 PNG, JPEG, GIF or WebP data: URL`
            : `state[${index}].image_url.url: only data: URLs are accepted (got ${scheme}…); the gateway does not fetch URLs on a caller's behalf. Embed the image as data:image/png;base64,…`,
        );
      }
      parts.push({ type: 'image', mediaType: match[1]!, base64: match[2]! });
      images += 1;
    } else if (part && typeof part === 'object' && part.type === 'text' && typeof part.text === 'string') {
      parts.push({ type: 'text', text: part.text });
    } else {
      parts.push({ type: 'text', text: typeof item === 'string' ? item : JSON.stringify(item) });
    }
  });
  return { parts, images };
}

/** Approximate token count (4 characters a token) where a provider reported none. */
export const estimateTokens = (text: string): number => estimateTokensOfLength(text.length);
export const estimateTokensOfLength = (characters: number): number => Math.max(1, Math.ceil(characters / 4));
