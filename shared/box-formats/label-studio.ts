import { BoxFormatError, baseName, edgesFrom, isObject, num, parseJsonFile, type BoxImage, type LabelledBox } from './types';

/** One `rectanglelabels` region of a Label Studio result (labelstud.io/guide/export#Label-Studio-JSON-format-of-annotated-tasks). */
interface RectangleResult {
  id: string;
  type: 'rectanglelabels';
  from_name: string;
  to_name: string;
  original_width?: number;
  original_height?: number;
  image_rotation: 0;
  value: { x: number; y: number; width: number; height: number; rotation: 0; rectanglelabels: [string] };
  score?: number;
}

export interface LabelStudioTask {
  data: { image: string };
  annotations: { result: RectangleResult[] }[];
  predictions: { model_version: string; score?: number; result: RectangleResult[] }[];
}

const pct = (v: number) => Math.round(v * 1e6) / 1e4;

function region(b: LabelledBox, image: BoxImage, id: string): RectangleResult {
  return {
    id,
    type: 'rectanglelabels',
    from_name: 'label',
    to_name: 'image',
    ...(image.width && image.height ? { original_width: image.width, original_height: image.height } : {}),
    image_rotation: 0,
    value: { x: pct(b.left), y: pct(b.top), width: pct(b.right - b.left), height: pct(b.bottom - b.top), rotation: 0, rectanglelabels: [b.label] },
  };
}

/**
 * Label Studio tasks: truth as annotations, the model's answers as predictions (with the IoU as the
 * region score), coordinates in percent of the image. A labelling config with
 * `<Image name="image" value="$image"/><RectangleLabels name="label" toName="image">` imports them.
 */
export function toLabelStudio(images: readonly BoxImage[]): LabelStudioTask[] {
  return images.map((image, i) => ({
    data: { image: image.file },
    annotations: [{ result: image.truth.map((b, k) => region(b, image, `t${i + 1}-${k + 1}`)) }],
    predictions: image.answers.length
      ? [
          {
            model_version: image.answers[0]?.model ?? 'unknown',
            result: image.answers.map((b, k) => ({ ...region(b, image, `a${i + 1}-${k + 1}`), ...(b.iou === null ? {} : { score: b.iou }) })),
          },
        ]
      : [],
  }));
}

/**
 * Truth from Label Studio's JSON export: per task, the first annotation that was not cancelled
 * (Label Studio keeps one per annotator). Regions other than `rectanglelabels` are skipped; a
 * rotated rectangle is refused, since a box here has axis-aligned edges.
 */
export function fromLabelStudio(text: string, file: string): BoxImage[] {
  const data = parseJsonFile(text, file);
  if (!Array.isArray(data)) throw new BoxFormatError(file, 'not a Label Studio export: expected an array of tasks');
  return data.map((task: unknown, t) => {
    const where = `${file}: task ${t + 1}`;
    if (!isObject(task) || !isObject(task['data'])) throw new BoxFormatError(where, 'a task needs "data" with the image');
    const source = Object.values(task['data']).find((v): v is string => typeof v === 'string');
    if (source === undefined) throw new BoxFormatError(where, '"data" names no image');
    const annotations = Array.isArray(task['annotations']) ? task['annotations'].filter((a) => isObject(a) && a['was_cancelled'] !== true) : [];
    const first = annotations[0] as Record<string, unknown> | undefined;
    const results = first && Array.isArray(first['result']) ? (first['result'] as unknown[]) : [];
    let width: number | null = null;
    let height: number | null = null;
    const truth: LabelledBox[] = [];
    results.forEach((r, k) => {
      if (!isObject(r) || r['type'] !== 'rectanglelabels' || !isObject(r['value'])) return;
      const at = `${where}, result ${k + 1}${typeof r['id'] === 'string' ? ` (${r['id']})` : ''}`;
      const v = r['value'];
      const rotation = v['rotation'] === undefined ? 0 : num(v['rotation'], at, 'value.rotation');
      if (rotation !== 0) throw new BoxFormatError(at, `the rectangle is rotated by ${rotation}°; only unrotated boxes can be imported`);
      const labels = v['rectanglelabels'];
      if (!Array.isArray(labels) || typeof labels[0] !== 'string') throw new BoxFormatError(at, 'value.rectanglelabels should name the label');
      if (typeof r['original_width'] === 'number' && typeof r['original_height'] === 'number')
        ({ original_width: width, original_height: height } = r as { original_width: number; original_height: number });
      const [x, y, w, h] = (['x', 'y', 'width', 'height'] as const).map((key) => num(v[key], at, `value.${key}`) / 100) as [number, number, number, number];
      truth.push({ label: labels[0], ...edgesFrom(x, y, w, h, at) });
    });
    return { file: baseName(source), width, height, truth, answers: [] };
  });
}
