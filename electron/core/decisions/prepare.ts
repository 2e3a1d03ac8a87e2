import type { DecisionsRequest } from '../../../shared/schemas/decisions-request';
import type { Question } from '../../../shared/schemas/question';
import type { CatalogModel } from '../catalog/types';
import { GatewayError } from '../errors';
import type { ContentPart } from '../providers/types';
import { prepareImage, type PreparedImage } from './box/image';
import { labelSet, type LabelSet } from './labels';
import { assetLabel, assetParts, stateParts } from './state';
import { guidanceText } from '../validation';

/** A request made ready to ask: the state as content parts, the image each box refers to, each question's labels. */
export interface Prepared {
  /** The state's parts, then each asset's (a line naming it, its image). */
  parts: ContentPart[];
  /** How many parts belong to the state (the rest are assets'). */
  stateLength: number;
  images: number;
  /** The image each box question refers to, upright (EXIF orientation applied). */
  boxImages: ReadonlyMap<string, PreparedImage>;
  /** The assets, by key, as the parts carry them. */
  assets: { key: string; part: Extract<ContentPart, { type: 'image' }> }[];
  labelled: [string, Question][];
  sets: ReadonlyMap<string, LabelSet>;
}

/**
 * Checks what only the gateway can check (box questions need an image and a model that locates
 * objects) and prepares the parts. A box refers to the asset its instructions name in backticks
 * (`the mug in \`photo\``), else to the first image.
 */
export function prepare(request: DecisionsRequest, model: CatalogModel): Prepared {
  const state = stateParts(request.state);
  const assets = request.assets ? assetParts(request.assets) : [];
  const labelled = Object.entries(request.questions) as [string, Question][];
  let parts: ContentPart[] = [...state.parts, ...assets.flatMap((a) => [{ type: 'text' as const, text: assetLabel(a.key) }, a.part])];
  const images = state.images + assets.length;
  const boxImages = new Map<string, PreparedImage>();
  const upright = new Map<number, PreparedImage>();
  for (const [name, q] of labelled) {
    if (q.type !== 'box') continue;
    if (!model.locates_objects)
      throw new GatewayError('bad_request', `questions.${name}: ${model.id} cannot locate objects in images, so it cannot answer a box question`);
    if (images === 0)
      throw new GatewayError('bad_request', `questions.${name}: a box question needs an image in state (an image_url part with a data: URL) or in assets`);
    const named = assets.find((a) => guidanceText(q.instructions).includes(`\`${a.key}\``));
    const index = named ? parts.indexOf(named.part) : parts.findIndex((p) => p.type === 'image');
    if (!upright.has(index)) {
      // Upright: EXIF orientation is applied before anyone sees the image.
      const image = parts[index] as Extract<ContentPart, { type: 'image' }>;
      upright.set(index, prepareImage(image.mediaType, image.base64, named ? `assets.${named.key}` : `state (image ${index + 1})`));
    }
    boxImages.set(name, upright.get(index)!);
  }
  const at = assets.map((a) => parts.indexOf(a.part));
  parts = parts.map((p, i) => {
    const image = upright.get(i);
    return image ? { type: 'image', mediaType: image.mediaType, base64: image.base64 } : p;
  });
  const sets = new Map(labelled.flatMap(([name, q]) => (q.type === 'box' ? [] : [[name, labelSet(name, q)] as const])));
  return {
    parts,
    stateLength: state.parts.length,
    images,
    boxImages,
    assets: assets.map((a, i) => ({ key: a.key, part: parts[at[i]!] as Extract<ContentPart, { type: 'image' }> })),
    labelled,
    sets,
  };
}
