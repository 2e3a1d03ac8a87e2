/**
 * Where each box's tag goes so that none hides another: a tag is tried above its box's top-left
 * corner, then above its top-right, below its bottom-left and bottom-right, then inside its top
 * corners; the first place that overlaps no tag already placed wins, else it goes below the last
 * one tried, a line at a time. Boxes that coincide have their outlines drawn a few pixels inside
 * one another, so each stays visible. Pure, in screen pixels.
 */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export const TAG_HEIGHT = 15;
/** An estimate of a tag's width at the overlay's 12 px bold font. */
export const tagWidth = (text: string) => text.length * 7 + 6;

const overlaps = (a: Rect, b: Rect) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The top-left corner of each tag (the text's box), in the order given. */
export function placeTags(items: readonly { box: Rect; text: string }[]): { x: number; y: number }[] {
  const placed: Rect[] = [];
  return items.map(({ box, text }) => {
    const w = tagWidth(text);
    const candidates = [
      { x: box.x, y: box.y - TAG_HEIGHT - 2 },
      { x: box.x + box.width - w, y: box.y - TAG_HEIGHT - 2 },
      { x: box.x, y: box.y + box.height + 2 },
      { x: box.x + box.width - w, y: box.y + box.height + 2 },
      { x: box.x + 3, y: box.y + 3 },
      { x: box.x + box.width - w - 3, y: box.y + 3 },
    ];
    let spot = candidates.find((c) => !placed.some((p) => overlaps(p, { ...c, width: w, height: TAG_HEIGHT })));
    if (!spot) {
      spot = { ...candidates[candidates.length - 1]! };
      while (placed.some((p) => overlaps(p, { ...spot!, width: w, height: TAG_HEIGHT }))) spot = { x: spot.x, y: spot.y + TAG_HEIGHT + 1 };
    }
    placed.push({ ...spot, width: w, height: TAG_HEIGHT });
    return spot;
  });
}

/** How far inside its box each outline is drawn: 0, or a step more for each earlier box it coincides with (within 2 px). */
export function insets(boxes: readonly Rect[], step = 4): number[] {
  const same = (a: Rect, b: Rect) =>
    Math.abs(a.x - b.x) <= 2 && Math.abs(a.y - b.y) <= 2 && Math.abs(a.width - b.width) <= 2 && Math.abs(a.height - b.height) <= 2;
  return boxes.map((b, i) => boxes.slice(0, i).filter((o) => same(o, b)).length * step);
}
