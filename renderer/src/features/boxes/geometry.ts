import type { Edges } from '../../../../shared/geometry/iou';

/** Where the image sits on screen: screen = image pixel × scale + offset (CSS pixels of the viewport). */
export interface View {
  scale: number;
  x: number;
  y: number;
}
export interface Point {
  x: number;
  y: number;
}
export interface Size {
  width: number;
  height: number;
}

export const MIN_SCALE = 0.02;
export const MAX_SCALE = 32;
/** The smallest box side, in fractions of the image. */
export const MIN_SIDE = 0.005;

export const clamp = (v: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, v));

export const toScreen = (view: View, p: Point): Point => ({ x: p.x * view.scale + view.x, y: p.y * view.scale + view.y });
export const toImage = (view: View, p: Point): Point => ({ x: (p.x - view.x) / view.scale, y: (p.y - view.y) / view.scale });

/** The whole image centred in the viewport, as large as fits. */
export function fit(image: Size, viewport: Size): View {
  const scale = clamp(Math.min(viewport.width / image.width, viewport.height / image.height), MIN_SCALE, MAX_SCALE);
  return { scale, x: (viewport.width - image.width * scale) / 2, y: (viewport.height - image.height * scale) / 2 };
}

/** One image pixel per screen pixel, keeping the image point at `anchor` (screen) where it is. */
export const actualSize = (view: View, anchor: Point): View => zoomAt(view, 1 / view.scale, anchor);

/** Zoom by `factor` about a screen point: the image point under it stays under it. */
export function zoomAt(view: View, factor: number, anchor: Point): View {
  const scale = clamp(view.scale * factor, MIN_SCALE, MAX_SCALE);
  const under = toImage(view, anchor);
  return { scale, x: anchor.x - under.x * scale, y: anchor.y - under.y * scale };
}

export const pan = (view: View, dx: number, dy: number): View => ({ ...view, x: view.x + dx, y: view.y + dy });

/** Wheel zoom factor: smooth for trackpads, one notch ≈ 10 %. */
export const wheelFactor = (deltaY: number): number => Math.exp(-clamp(deltaY, -500, 500) / 1000);

/** A value moved to 0 or 1 when it is within `tolerance` of that image edge. */
export function snapToEdges(v: number, tolerance: number): number {
  if (Math.abs(v) <= tolerance) return 0;
  if (Math.abs(1 - v) <= tolerance) return 1;
  return v;
}

/** Edges in order, inside the image, at least MIN_SIDE on each side. */
export function normalise(b: Edges): Edges {
  let left = clamp(Math.min(b.left, b.right), 0, 1);
  let right = clamp(Math.max(b.left, b.right), 0, 1);
  let top = clamp(Math.min(b.top, b.bottom), 0, 1);
  let bottom = clamp(Math.max(b.top, b.bottom), 0, 1);
  if (right - left < MIN_SIDE) [left, right] = left + MIN_SIDE <= 1 ? [left, left + MIN_SIDE] : [1 - MIN_SIDE, 1];
  if (bottom - top < MIN_SIDE) [top, bottom] = top + MIN_SIDE <= 1 ? [top, top + MIN_SIDE] : [1 - MIN_SIDE, 1];
  return { left, top, right, bottom };
}

/** The box moved by (dx, dy) fractions, same size, kept inside the image. */
export function move(b: Edges, dx: number, dy: number): Edges {
  const w = b.right - b.left;
  const h = b.bottom - b.top;
  const left = clamp(b.left + dx, 0, 1 - w);
  const top = clamp(b.top + dy, 0, 1 - h);
  return { left, top, right: left + w, bottom: top + h };
}

export type Handle = 'n' | 's' | 'e' | 'w' | 'ne' | 'nw' | 'se' | 'sw';
export const HANDLES: readonly Handle[] = ['nw', 'n', 'ne', 'e', 'se', 's', 'sw', 'w'];

/** Where a handle sits on a box, in fractions. */
export function handlePoint(b: Edges, h: Handle): Point {
  const x = h.includes('w') ? b.left : h.includes('e') ? b.right : (b.left + b.right) / 2;
  const y = h.includes('n') ? b.top : h.includes('s') ? b.bottom : (b.top + b.bottom) / 2;
  return { x, y };
}

/**
 * The box with the edges a handle holds moved to `p` (fractions), snapped to the image edges within
 * `snap`; dragged past the opposite edge, the box turns over instead of inverting.
 */
export function resize(b: Edges, h: Handle, p: Point, snap = 0): Edges {
  const x = snapToEdges(clamp(p.x, 0, 1), snap);
  const y = snapToEdges(clamp(p.y, 0, 1), snap);
  return normalise({
    left: h.includes('w') ? x : b.left,
    right: h.includes('e') ? x : b.right,
    top: h.includes('n') ? y : b.top,
    bottom: h.includes('s') ? y : b.bottom,
  });
}

/** A new box from two corners (fractions), snapped to the image edges within `snap`. */
export function fromCorners(a: Point, b: Point, snap = 0): Edges {
  const s = (v: number) => snapToEdges(clamp(v, 0, 1), snap);
  return { left: s(Math.min(a.x, b.x)), right: s(Math.max(a.x, b.x)), top: s(Math.min(a.y, b.y)), bottom: s(Math.max(a.y, b.y)) };
}
