import type { DecisionsRequest } from '../../../shared/schemas/decisions-request';
import type { Question } from '../../../shared/schemas/question';
import type { CatalogModel } from '../catalog/types';
import { GatewayError } from '../errors';
import type { ContentPart } from '../providers/types';
import { uprightSize } from '../images/limits';
import type { ImagePool } from '../images/pool';
import { labelSet, type LabelSet } from './labels';
import { assetLabel, assetParts, stateParts, type ImageHeaders, type ImagePart } from './state';
import { guidanceText } from '../validation';

/** The image a box question is about, with its size as people see it (EXIF orientation applied). */
export interface PreparedImage {
  mediaType: string;
  base64: string;
  width: number;
  height: number;
  /** EXIF orientation still to apply to the pixels (1: they are upright already); see `uprightImages`. */
  orientation: number;
  /** Where the image is in the request, for messages. */
  where: string;
}

/** A request made ready to ask: the state as content parts, the image each box refers to, each question's labels. */
export interface Prepared {
  /** The state's parts, then each asset's (a line naming it, its image). */
  parts: ContentPart[];
  /** How many parts belong to the state (the rest are assets'). */
  stateLength: number;
  images: number;
  /** The image each box question refers to, sized as people see it (its pixels turned upright by `uprightImages`). */
  boxImages: ReadonlyMap<string, PreparedImage>;
  /** The assets, by key, as the parts carry them. */
  assets: { key: string; part: ImagePart }[];
  labelled: [string, Question][];
  sets: ReadonlyMap<string, LabelSet>;
}

/**
 * Checks what only the gateway can check (box questions need an image and a model that locates
 * objects) and prepares the parts. A box refers to the asset its instructions name in backticks
 * (`the mug in \`photo\``), else to the first image.
 */
export function prepare(request: DecisionsRequest, model: CatalogModel): Prepared {
  const headers: ImageHeaders = new Map();
  const state = stateParts(request.state, headers);
  const assets = request.assets ? assetParts(request.assets, headers) : [];
  const labelled = Object.entries(request.questions) as [string, Question][];
  const parts: ContentPart[] = [...state.parts, ...assets.flatMap((a) => [{ type: 'text' as const, text: assetLabel(a.key) }, a.part])];
  const images = state.images + assets.length;
  const boxImages = new Map<string, PreparedImage>();
  for (const [name, q] of labelled) {
    if (q.type !== 'box') continue;
    if (!model.locates_objects)
      throw new GatewayError('bad_request', `questions.${name}: ${model.id} cannot locate objects in images, so it cannot answer a box question`);
    if (images === 0)
      throw new GatewayError('bad_request', `questions.${name}: a box question needs an image in state (an image_url part with a data: URL) or in assets`);
    const named = assets.find((a) => guidanceText(q.instructions).includes(`\`${a.key}\``));
    const index = named ? parts.indexOf(named.part) : parts.findIndex((p) => p.type === 'image');
    const image = parts[index] as ImagePart;
    const header = headers.get(image)!;
    boxImages.set(name, {
      mediaType: image.mediaType,
      base64: image.base64,
      ...uprightSize(header),
      orientation: header.orientation,
      where: named ? `assets.${named.key}` : `state (image ${index + 1})`,
    });
  }
  const sets = new Map(labelled.flatMap(([name, q]) => (q.type === 'box' ? [] : [[name, labelSet(name, q)] as const])));
  return { parts, stateLength: state.parts.length, images, boxImages, assets, labelled, sets };
}

/**
 * The request with every image a box question is about turned upright (EXIF orientation applied
 * to its pixels, on the image pool's threads), so that the model sees the image as people do and
 * the box's fractions refer to it. Other images go as they are. Returns `prepared` itself when
 * nothing needs turning.
 */
export async function uprightImages(prepared: Prepared, pool: ImagePool): Promise<Prepared> {
  const turning = new Map<string, Promise<PreparedImage>>();
  for (const image of prepared.boxImages.values()) {
    if (image.orientation === 1 || turning.has(image.base64)) continue;
    turning.set(
      image.base64,
      pool.upright(image, image.where).then((upright) => ({ ...image, ...upright, orientation: 1 })),
    );
  }
  if (turning.size === 0) return prepared;
  const turned = new Map<string, PreparedImage>();
  for (const [from, promise] of turning) turned.set(from, await promise);
  const swap = (part: ContentPart): ContentPart => {
    const image = part.type === 'image' ? turned.get(part.base64) : undefined;
    return image ? { type: 'image', mediaType: image.mediaType, base64: image.base64 } : part;
  };
  const parts = prepared.parts.map(swap);
  return {
    ...prepared,
    parts,
    boxImages: new Map([...prepared.boxImages].map(([name, image]) => [name, turned.get(image.base64) ?? image])),
    assets: prepared.assets.map((a) => ({ key: a.key, part: parts[prepared.parts.indexOf(a.part)] as ImagePart })),
  };
}
