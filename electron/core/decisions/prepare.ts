import type { DecisionsRequest } from '../../../shared/schemas/decisions-request';
import type { Question } from '../../../shared/schemas/question';
import type { CatalogModel } from '../catalog/types';
import { GatewayError } from '../errors';
import type { ContentPart } from '../providers/types';
import { prepareImage, type PreparedImage } from './box/image';
import { labelSet, type LabelSet } from './labels';
import { stateParts } from './state';

/** A request made ready to ask: the state as content parts, the image boxes refer to, each question's labels. */
export interface Prepared {
  parts: ContentPart[];
  images: number;
  /** The first image, upright (EXIF orientation applied), when a box question refers to it. */
  image: PreparedImage | null;
  labelled: [string, Question][];
  sets: ReadonlyMap<string, LabelSet>;
}

/** Checks what only the gateway can check (box questions need an image and a model that locates objects) and prepares the parts. */
export function prepare(request: DecisionsRequest, model: CatalogModel): Prepared {
  const state = stateParts(request.state);
  const labelled = Object.entries(request.questions) as [string, Question][];
  let parts = state.parts;
  let image: PreparedImage | null = null;
  const boxes = labelled.filter(([, q]) => q.type === 'box');
  for (const [name] of boxes) {
    if (!model.locates_objects) throw new GatewayError('bad_request', `questions.${name}: ${model.id} cannot locate objects in images, so it cannot answer a box question`);
    if (state.images === 0) throw new GatewayError('bad_request', `questions.${name}: a box question needs an image in state (an image_url part with a data: URL)`);
  }
  if (boxes.length > 0) {
    // Boxes refer to the first image, upright: EXIF orientation is applied before anyone sees it.
    const index = parts.findIndex((p) => p.type === 'image');
    const first = parts[index] as Extract<ContentPart, { type: 'image' }>;
    const upright = prepareImage(first.mediaType, first.base64, `state (image ${index + 1})`);
    image = upright;
    parts = parts.map((p, i) => (i === index ? { type: 'image', mediaType: upright.mediaType, base64: upright.base64 } : p));
  }
  const sets = new Map(labelled.flatMap(([name, q]) => (q.type === 'box' ? [] : [[name, labelSet(name, q)] as const])));
  return { parts, images: state.images, image, labelled, sets };
}
