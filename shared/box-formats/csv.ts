import { BoxFormatError, edgesFrom, labelsOf, sizeOf, type BoxImage, type LabelledBox } from './types';

export const BOX_CSV_HEADER = [
  'image',
  'width',
  'height',
  'question',
  'truth_x',
  'truth_y',
  'truth_width',
  'truth_height',
  'answer_x',
  'answer_y',
  'answer_width',
  'answer_height',
  'iou',
  'pass',
  'model',
  'verdict',
  'stale',
  'note',
] as const;

const cell = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
const px = (v: number) => String(Math.round(v * 100) / 100);

function pixels(b: LabelledBox | undefined, width: number, height: number): string[] {
  return b ? [px(b.left * width), px(b.top * height), px((b.right - b.left) * width), px((b.bottom - b.top) * height)] : ['', '', '', ''];
}

/**
 * One row per (image, box question): the truth and answer boxes as pixel x, y, width, height (origin
 * top-left) with the image's width and height, the IoU, pass at `threshold`, and the review.
 * A question with no truth and no answer on an image gives no row.
 */
export function toBoxCsv(images: readonly BoxImage[], threshold: number): string {
  const questions = labelsOf(images);
  const rows: string[][] = [[...BOX_CSV_HEADER]];
  for (const image of images) {
    const { width, height } = sizeOf(image, 'CSV');
    for (const q of questions) {
      const truth = image.truth.find((b) => b.label === q);
      const answer = image.answers.find((b) => b.label === q);
      if (!truth && !answer) continue;
      const iou = answer?.iou ?? null;
      // The verdict of this question's answer where answers are judged one by one, else the image's.
      const review = image.reviews
        ? (image.reviews[q] ?? { verdict: null, stale: false, note: '' })
        : (image.review ?? { verdict: null, stale: false, note: '' });
      rows.push([
        image.file,
        String(width),
        String(height),
        q,
        ...pixels(truth, width, height),
        ...pixels(answer, width, height),
        iou === null ? '' : iou.toFixed(4),
        iou === null ? '' : String(iou >= threshold),
        answer?.model ?? '',
        review.verdict ?? '',
        String(review.stale),
        review.note,
      ]);
    }
  }
  return rows.map((r) => r.map(cell).join(',')).join('\n') + '\n';
}

const REQUIRED = ['image', 'width', 'height', 'question', 'truth_x', 'truth_y', 'truth_width', 'truth_height'] as const;

/**
 * Truth boxes by image from the rows of a CSV with this format's columns (others are ignored), as a
 * CSV reader gives them with the header as keys: a row without a truth box (an answer alone) gives
 * none. `file` names the file in problems, with the row (the header is row 1) and column.
 */
export function fromBoxCsvRows(rows: readonly Record<string, string>[], file: string): BoxImage[] {
  const missing = REQUIRED.filter((c) => rows.length > 0 && !(c in rows[0]!));
  if (missing.length > 0) throw new BoxFormatError(file, `missing column ${missing.map((c) => `"${c}"`).join(', ')} (needs ${REQUIRED.join(', ')})`);
  const images = new Map<string, BoxImage>();
  rows.forEach((row, i) => {
    if ((row['truth_x'] ?? '') === '') return;
    const at = (column: string) => `${file}: row ${i + 2}, ${column}`;
    const n = (column: (typeof REQUIRED)[number]) => {
      const v = Number(row[column]);
      if (row[column] === '' || !Number.isFinite(v)) throw new BoxFormatError(at(column), `expected a number, got "${row[column]}"`);
      return v;
    };
    const [width, height] = [n('width'), n('height')];
    if (!(width > 0 && height > 0)) throw new BoxFormatError(at('width'), 'the image size should be positive');
    const name = row['image']!;
    const image = images.get(name) ?? { file: name, width, height, truth: [], answers: [] };
    images.set(name, image);
    image.truth.push({
      label: row['question']!,
      ...edgesFrom(n('truth_x') / width, n('truth_y') / height, n('truth_width') / width, n('truth_height') / height, at('truth_width')),
    });
  });
  return [...images.values()];
}
