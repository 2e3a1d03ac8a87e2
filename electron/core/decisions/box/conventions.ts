import type { Box } from '../../../../shared/schemas/answer';
import type { BOX_CONVENTIONS } from '../../../../shared/schemas/catalog';

/**
 * How a model family states a box. Converted to Verdict's fractions of the image (origin
 * top-left, top < bottom, left < right, all in [0, 1]).
 */
export type BoxConvention = (typeof BOX_CONVENTIONS)[number];

/** The family's convention from its model id, when the catalog does not say. */
export function boxConventionFor(modelId: string): BoxConvention {
  const id = modelId.toLowerCase();
  if (id.includes('gemini')) return 'gemini-1000';
  if (/qwen2\.5-?vl/.test(id)) return 'qwen25-pixels';
  if (/qwen\d*(\.\d+)?-?vl/.test(id)) return 'qwen-1000';
  if (id.includes('claude')) return 'claude-pixels';
  return 'fractions';
}

/** What the model is asked to return, in its own convention. */
export function boxInstruction(convention: BoxConvention, seen: { width: number; height: number }): string {
  switch (convention) {
    case 'gemini-1000':
      return 'Reply with JSON only: {"box_2d": [ymin, xmin, ymax, xmax]} with coordinates normalized to 0-1000.';
    case 'qwen-1000':
      return 'Reply with JSON only: {"bbox_2d": [x1, y1, x2, y2]} with coordinates normalized to 0-1000.';
    case 'qwen25-pixels':
    case 'claude-pixels':
      return `Reply with JSON only: {"bbox_2d": [x1, y1, x2, y2]} in pixels of the image (it is ${seen.width} x ${seen.height} pixels).`;
    default:
      return 'Reply with JSON only: {"box": {"top": t, "bottom": b, "left": l, "right": r}} as fractions of the image height (top, bottom) and width (left, right), from 0 to 1.';
  }
}

/**
 * The size of the image the model actually saw. Qwen2.5-VL resizes to multiples of 28 within a
 * pixel budget (smart_resize); Claude scales the long edge to at most 1568 px and the area to
 * about 1.15 megapixels. Others: the image as sent.
 */
export function seenSize(convention: BoxConvention, width: number, height: number): { width: number; height: number } {
  if (convention === 'qwen25-pixels') {
    const factor = 28;
    const minPixels = 56 * 56;
    const maxPixels = 28 * 28 * 1280;
    let h = Math.max(factor, Math.round(height / factor) * factor);
    let w = Math.max(factor, Math.round(width / factor) * factor);
    if (h * w > maxPixels) {
      const beta = Math.sqrt((height * width) / maxPixels);
      h = Math.floor(height / beta / factor) * factor;
      w = Math.floor(width / beta / factor) * factor;
    } else if (h * w < minPixels) {
      const beta = Math.sqrt(minPixels / (height * width));
      h = Math.ceil((height * beta) / factor) * factor;
      w = Math.ceil((width * beta) / factor) * factor;
    }
    return { width: w, height: h };
  }
  if (convention === 'claude-pixels') {
    const scale = Math.min(1, 1568 / Math.max(width, height), Math.sqrt(1_150_000 / (width * height)));
    return { width: Math.round(width * scale), height: Math.round(height * scale) };
  }
  return { width, height };
}

const clamp = (v: number) => Math.min(1, Math.max(0, v));
const numbers = (value: unknown): number[] | null =>
  Array.isArray(value) && value.length === 4 && value.every((v) => typeof v === 'number' && Number.isFinite(v)) ? (value as number[]) : null;

/** A reply that is only a list of four numbers (in a code fence or not). */
function bareList(text: string): number[] | null {
  const match = /^\s*(?:```(?:json)?\s*)?(\[[^[\]]*\])\s*(?:```)?\s*$/.exec(text);
  if (!match) return null;
  try {
    return numbers(JSON.parse(match[1]!));
  } catch {
    return null;
  }
}

/** The first JSON object in a reply. */
function json(text: string): Record<string, unknown> | null {
  const match = /\{[\s\S]*\}/.exec(text);
  if (!match) return null;
  try {
    const parsed = JSON.parse(match[0]) as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * A reply's box as fractions: converted from the convention, edges ordered, clamped to [0, 1].
 * Null when the reply holds no usable box (never a made-up one).
 */
export function parseBox(text: string, convention: BoxConvention, seen: { width: number; height: number }): Box | null {
  // Models of the list conventions sometimes answer with the bare list, [ymin, xmin, ymax, xmax] or [x1, y1, x2, y2].
  const bare = convention === 'fractions' ? null : bareList(text);
  const reply = json(text) ?? (bare ? { box_2d: bare, bbox_2d: bare } : null);
  if (!reply) return null;
  let top: number;
  let left: number;
  let bottom: number;
  let right: number;
  if (convention === 'fractions') {
    const b = reply['box'] as Record<string, unknown> | undefined;
    const v = b && [b['top'], b['left'], b['bottom'], b['right']];
    if (!v || !v.every((x) => typeof x === 'number' && Number.isFinite(x))) return null;
    [top, left, bottom, right] = v as number[] as [number, number, number, number];
  } else if (convention === 'gemini-1000') {
    const v = numbers(reply['box_2d']);
    if (!v) return null;
    [top, left, bottom, right] = v.map((x) => x / 1000) as [number, number, number, number];
  } else {
    const v = numbers(reply['bbox_2d'] ?? reply['box']);
    if (!v) return null;
    const [x1, y1, x2, y2] = v as [number, number, number, number];
    const [sx, sy] = convention === 'qwen-1000' ? [1000, 1000] : [seen.width, seen.height];
    [left, top, right, bottom] = [x1 / sx, y1 / sy, x2 / sx, y2 / sy];
  }
  const box = {
    top: clamp(Math.min(top, bottom)),
    bottom: clamp(Math.max(top, bottom)),
    left: clamp(Math.min(left, right)),
    right: clamp(Math.max(left, right)),
  };
  return box.bottom > box.top && box.right > box.left ? box : null;
}

export { iou } from '../../../../shared/geometry/iou';
