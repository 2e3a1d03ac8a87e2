import { BoxFormatError, edgesFrom, isObject, labelsOf, num, parseJsonFile, sizeOf, type BoxImage, type LabelledBox } from './types';

/** A COCO object-detection dataset: the fields of the spec that concern boxes (cocodataset.org/#format-data). */
export interface CocoDataset {
  info: Record<string, unknown>;
  licenses: unknown[];
  images: { id: number; file_name: string; width: number; height: number }[];
  categories: { id: number; name: string; supercategory: string }[];
  annotations: { id: number; image_id: number; category_id: number; bbox: [number, number, number, number]; area: number; iscrowd: 0; segmentation: [] }[];
}

/** A COCO detection result, as cocoapi's `loadRes` reads them, with the answer's IoU and model beside it. */
export interface CocoResult {
  image_id: number;
  category_id: number;
  bbox: [number, number, number, number];
  score: number;
  iou: number | null;
  model: string | null;
}

const px = (v: number) => Math.round(v * 100) / 100;

function bbox(b: LabelledBox, width: number, height: number): [number, number, number, number] {
  return [px(b.left * width), px(b.top * height), px((b.right - b.left) * width), px((b.bottom - b.top) * height)];
}

/**
 * Truth as a COCO dataset (one category per box question, pixel boxes, image sizes) and the model's
 * answers as a second set in COCO's results format, with each answer's IoU.
 */
export function toCoco(images: readonly BoxImage[], description = 'Verdict box review'): { dataset: CocoDataset; answers: CocoResult[] } {
  const labels = labelsOf(images);
  const categoryId = (label: string) => labels.indexOf(label) + 1;
  const dataset: CocoDataset = {
    info: { description, date_created: '' },
    licenses: [],
    images: [],
    categories: labels.map((name, i) => ({ id: i + 1, name, supercategory: '' })),
    annotations: [],
  };
  const answers: CocoResult[] = [];
  images.forEach((image, i) => {
    const { width, height } = sizeOf(image, 'COCO');
    dataset.images.push({ id: i + 1, file_name: image.file, width, height });
    for (const t of image.truth) {
      const box = bbox(t, width, height);
      dataset.annotations.push({
        id: dataset.annotations.length + 1,
        image_id: i + 1,
        category_id: categoryId(t.label),
        bbox: box,
        area: px(box[2] * box[3]),
        iscrowd: 0,
        segmentation: [],
      });
    }
    for (const a of image.answers)
      answers.push({ image_id: i + 1, category_id: categoryId(a.label), bbox: bbox(a, width, height), score: 1, iou: a.iou, model: a.model });
  });
  return { dataset, answers };
}

/** Truth boxes from a COCO dataset JSON (any tool's export); `file` names the file in problems. */
export function fromCoco(text: string, file: string): BoxImage[] {
  const data = parseJsonFile(text, file);
  if (!isObject(data) || !Array.isArray(data['images']) || !Array.isArray(data['annotations']) || !Array.isArray(data['categories'])) {
    throw new BoxFormatError(file, 'not a COCO dataset: expected an object with "images", "annotations" and "categories" arrays');
  }
  const categories = new Map<number, string>();
  data['categories'].forEach((c: unknown, i) => {
    const where = `${file}: categories[${i}]`;
    if (!isObject(c) || typeof c['name'] !== 'string') throw new BoxFormatError(where, 'a category needs an "id" and a "name"');
    categories.set(num(c['id'], where, '"id"'), c['name']);
  });
  const images = new Map<number, BoxImage>();
  data['images'].forEach((im: unknown, i) => {
    const where = `${file}: images[${i}]`;
    if (!isObject(im) || typeof im['file_name'] !== 'string')
      throw new BoxFormatError(where, 'an image needs an "id", a "file_name", a "width" and a "height"');
    images.set(num(im['id'], where, '"id"'), {
      file: im['file_name'],
      width: num(im['width'], where, '"width"'),
      height: num(im['height'], where, '"height"'),
      truth: [],
      answers: [],
    });
  });
  data['annotations'].forEach((a: unknown, i) => {
    const where = `${file}: annotations[${i}]`;
    if (!isObject(a) || !Array.isArray(a['bbox']) || a['bbox'].length !== 4)
      throw new BoxFormatError(where, 'an annotation needs a "bbox" of [x, y, width, height] in pixels');
    const image = images.get(num(a['image_id'], where, '"image_id"'));
    if (!image) throw new BoxFormatError(where, `"image_id" ${String(a['image_id'])} is not among the images`);
    const label = categories.get(num(a['category_id'], where, '"category_id"'));
    if (label === undefined) throw new BoxFormatError(where, `"category_id" ${String(a['category_id'])} is not among the categories`);
    const [x, y, w, h] = (a['bbox'] as unknown[]).map((v, k) => num(v, where, `bbox[${k}]`)) as [number, number, number, number];
    const { width, height } = sizeOf(image, 'COCO');
    image.truth.push({ label, ...edgesFrom(x / width, y / height, w / width, h / height, where) });
  });
  return [...images.values()];
}
