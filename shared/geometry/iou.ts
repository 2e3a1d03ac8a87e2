/**
 * Edges of a box in fractions of the image (origin top-left): the one box shape of answers, truth,
 * reviews and exports (answers are checked by BoxSchema in shared/schemas/answer.ts, which has it).
 */
export interface Edges {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

/** Intersection over union of two boxes. */
export function iou(a: Edges, b: Edges): number {
  const w = Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left));
  const h = Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));
  const inter = w * h;
  const union = (a.right - a.left) * (a.bottom - a.top) + (b.right - b.left) * (b.bottom - b.top) - inter;
  return union <= 0 ? 0 : inter / union;
}
