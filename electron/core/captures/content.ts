import type { DecisionsRequest } from '../../../shared/schemas/decisions-request';
import { assetLabel } from '../decisions/state';

/** What an image becomes in a rule's dataset when the rule does not keep images. */
export const IMAGE_NOT_KEPT = '[image not kept]';

/** The state with every image part turned into a text part saying it was not kept, and any other data: image URL into that text. */
function withoutImages(value: unknown): unknown {
  if (typeof value === 'string') return value.startsWith('data:image/') ? IMAGE_NOT_KEPT : value;
  if (Array.isArray(value)) {
    return value.map((part: unknown) =>
      part !== null && typeof part === 'object' && (part as { type?: unknown }).type === 'image_url'
        ? { type: 'text', text: IMAGE_NOT_KEPT }
        : withoutImages(part),
    );
  }
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutImages(v)]));
}

/**
 * A captured request's content as its dataset item keeps it, so that an evaluation over the dataset
 * asks what the caller asked: the state as sent, with the request's assets (images sent once and
 * named) after it, each behind the label the models saw it under. Without `keepImages`, every
 * image is replaced by a text part saying it was not kept.
 */
export function capturedState(request: Pick<DecisionsRequest, 'state' | 'assets'>, keepImages: boolean): unknown {
  const assets = Object.entries(request.assets ?? {});
  if (assets.length === 0) return keepImages ? request.state : withoutImages(request.state);
  const parts: unknown[] = Array.isArray(request.state)
    ? [...request.state]
    : [{ type: 'text', text: typeof request.state === 'string' ? request.state : JSON.stringify(request.state) }];
  for (const [key, asset] of assets) {
    const type = asset.format === 'png' ? 'png' : 'jpeg';
    parts.push({ type: 'text', text: assetLabel(key) }, { type: 'image_url', image_url: { url: `data:image/${type};base64,${asset.data_base64}` } });
  }
  return keepImages ? parts : withoutImages(parts);
}
