import type { Box } from '../../../shared/schemas/answer';

/** Intersection over union of two boxes given as fractions of the image. */
export function iou(a: Box, b: Box): number {
  const w = Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left));
  const h = Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));
  const inter = w * h;
  const union = (a.right - a.left) * (a.bottom - a.top) + (b.right - b.left) * (b.bottom - b.top) - inter;
  return union <= 0 ? 0 : inter / union;
}
