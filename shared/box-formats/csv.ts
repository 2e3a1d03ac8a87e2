import { labelsOf, sizeOf, type BoxImage, type LabelledBox } from './types';

export const BOX_CSV_HEADER = ['image', 'width', 'height', 'question', 'truth_x', 'truth_y', 'truth_width', 'truth_height', 'answer_x', 'answer_y', 'answer_width', 'answer_height', 'iou', 'pass', 'model', 'verdict', 'stale', 'note'] as const;

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
      const review = image.review ?? { verdict: null, stale: false, note: '' };
      rows.push([image.file, String(width), String(height), q, ...pixels(truth, width, height), ...pixels(answer, width, height), iou === null ? '' : iou.toFixed(4), iou === null ? '' : String(iou >= threshold), answer?.model ?? '', review.verdict ?? '', String(review.stale), review.note]);
    }
  }
  return rows.map((r) => r.map(cell).join(',')).join('\n') + '\n';
}
