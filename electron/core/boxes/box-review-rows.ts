/**
 * Pure conversions between dataset items and box reviews: expected box answers as labelled truth
 * and back, an evaluation result's box answers, and the image's size read off the start of its state.
 */
import type { Expected } from '../../../shared/schemas/evaluation';
import type { TruthBox } from '../../../shared/schemas/inspector';

export type { Edges } from '../../../shared/geometry/iou';
import type { Edges } from '../../../shared/geometry/iou';

/** image-size, loaded with the first image read (an idle server holds none). */
import { imageSize } from '../images/image-size';

/** The question a truth box without a label belongs to (as in the Boxes screen). */
export const UNLABELLED_QUESTION = 'box';

const isEdges = (v: unknown): v is Edges =>
  typeof v === 'object' &&
  v !== null &&
  !Array.isArray(v) &&
  ['top', 'left', 'bottom', 'right'].every((k) => typeof (v as Record<string, unknown>)[k] === 'number');
const edges = (b: Edges): Edges => ({ top: b.top, left: b.left, bottom: b.bottom, right: b.right });

/** Each expected box answer as a truth box labelled with its question's name. */
export function truthFromExpected(expected: Expected): TruthBox[] {
  return Object.entries(expected)
    .filter((e): e is [string, Edges] => isEdges(e[1]))
    .map(([label, b]) => ({ label, ...edges(b) }));
}

/**
 * The expected answers with the box ones replaced by the truth drawn: the first box of each label
 * (an unlabelled one counts as question `unlabelled`, "box" unless named); answers to other kinds of question are kept.
 */
export function expectedWithTruth(expected: Expected, truth: readonly TruthBox[], unlabelled = UNLABELLED_QUESTION): Expected {
  const out: Expected = Object.fromEntries(Object.entries(expected).filter(([, v]) => !isEdges(v)));
  for (const t of truth) out[t.label ?? unlabelled] ??= edges(t);
  return out;
}

/** The box answers of one stored evaluation result (its `answers` JSON), by question, keys sorted. */
export function boxAnswersOf(answers: string | Record<string, unknown> | null | undefined): Record<string, Edges> {
  if (!answers) return {};
  let parsed: unknown = answers;
  if (typeof answers === 'string')
    try {
      parsed = JSON.parse(answers);
    } catch {
      return {};
    }
  const out: Record<string, Edges> = {};
  for (const name of Object.keys((parsed ?? {}) as object).sort()) {
    const a = (parsed as Record<string, { type?: unknown; box?: unknown } | null>)[name];
    if (a?.type === 'box' && isEdges(a.box)) out[name] = edges(a.box);
  }
  return out;
}

/** The data: URL of the first image in a dataset item's state, or null. */
export function imageUrlOf(state: unknown): string | null {
  const parts = Array.isArray(state) ? (state as unknown[]) : [state];
  for (const p of parts) {
    const url = (p as { image_url?: { url?: unknown } } | null)?.image_url?.url;
    if (typeof url === 'string' && url.startsWith('data:image/')) return url;
  }
  return null;
}

/**
 * Width and height from the first characters of a state's JSON, which hold the start of its image's
 * base64: enough for PNG, GIF, WebP and most JPEGs. Nulls when the header is not in them.
 */
export function sizeFromHead(head: string): { width: number | null; height: number | null } {
  const start = head.indexOf(';base64,');
  if (start < 0) return { width: null, height: null };
  const rest = head.slice(start + ';base64,'.length);
  const end = rest.search(/[^A-Za-z0-9+/]/);
  const b64 = end < 0 ? rest : rest.slice(0, end);
  try {
    const size = imageSize(Buffer.from(b64.slice(0, b64.length - (b64.length % 4)), 'base64'));
    return size.width && size.height ? { width: size.width, height: size.height } : { width: null, height: null };
  } catch {
    return { width: null, height: null };
  }
}
