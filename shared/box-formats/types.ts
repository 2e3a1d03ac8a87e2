import type { Edges } from '../geometry/iou';

/** A box with the name of the box question it belongs to (its label), in fractions of the image. */
export interface LabelledBox extends Edges {
  label: string;
}

/** A model's box for one box question, with its IoU against that question's truth box. */
export interface AnswerBox extends LabelledBox {
  iou: number | null;
  model: string | null;
}

/** One image as the formats see it: its file name, its size in pixels when known, truth and answers. */
export interface BoxImage {
  file: string;
  width: number | null;
  height: number | null;
  truth: LabelledBox[];
  answers: AnswerBox[];
  /** The reviewer's verdict, whether a later run made it stale, and the note; exported by CSV. */
  review?: { verdict: 'accepted' | 'rejected' | null; stale: boolean; note: string };
  /** The verdict on each question's answer, by question, where verdicts are given per answer; CSV rows take it over `review`. */
  reviews?: Record<string, { verdict: 'accepted' | 'rejected' | null; stale: boolean; note: string }>;
}

/** Bad input to an import: `where` names the file and the place in it (task, line, annotation). */
export class BoxFormatError extends Error {
  constructor(
    readonly where: string,
    problem: string,
  ) {
    super(`${where}: ${problem}`);
    this.name = 'BoxFormatError';
  }
}

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A file's text as JSON; a BoxFormatError naming `file` when it is not JSON. */
export function parseJsonFile(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new BoxFormatError(file, `not JSON (${(e as Error).message})`);
  }
}

export const clamp01 = (v: number): number => Math.min(1, Math.max(0, v));

/** A finite number or a BoxFormatError naming where it was expected. */
export function num(value: unknown, where: string, what: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw new BoxFormatError(where, `${what} should be a number, got ${JSON.stringify(value) ?? 'nothing'}`);
  return value;
}

/** Edges from a top-left corner and a size, all in fractions; refuses an empty or inverted box. */
export function edgesFrom(x: number, y: number, w: number, h: number, where: string): Edges {
  if (!(w > 0 && h > 0)) throw new BoxFormatError(where, `the box has no area (width ${w}, height ${h})`);
  return { left: clamp01(x), top: clamp01(y), right: clamp01(x + w), bottom: clamp01(y + h) };
}

/** Labels in first-seen order over truth and answers. */
export function labelsOf(images: readonly BoxImage[]): string[] {
  const seen = new Set<string>();
  for (const image of images) for (const b of [...image.truth, ...image.answers]) seen.add(b.label);
  return [...seen];
}

/** The file name in a path or URL, also Label Studio's local-files form `/data/local-files/?d=dir/img.jpg`. */
export function baseName(path: string): string {
  const local = /[?&]d=([^&#]*)/.exec(path);
  const plain = local ? decodeURIComponent(local[1]!) : path.replace(/[?#].*$/, '');
  return plain.replace(/^.*[\\/]/, '');
}
export const stem = (path: string): string => baseName(path).replace(/\.[^.]*$/, '');

/** The image's size or a BoxFormatError: pixel formats need it. */
export function sizeOf(image: BoxImage, format: string): { width: number; height: number } {
  if (!image.width || !image.height) throw new BoxFormatError(image.file, `${format} needs the image's size in pixels, which is not known`);
  return { width: image.width, height: image.height };
}
