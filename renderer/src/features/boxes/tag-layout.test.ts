import { describe, expect, it } from 'vitest';
import { insets, placeTags, tagWidth, TAG_HEIGHT } from './tag-layout';

const overlap = (a: { x: number; y: number; w: number }, b: { x: number; y: number; w: number }) =>
  a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + TAG_HEIGHT && b.y < a.y + TAG_HEIGHT;

describe('tags and outlines of boxes', () => {
  it('never puts two tags on top of each other, even for boxes in one place', () => {
    const box = { x: 100, y: 100, width: 200, height: 120 };
    const items = ['card · IoU 0.33', 'badge · IoU 0.06', 'card', 'badge', 'logo · no truth'].map((text) => ({ box, text }));
    const spots = placeTags(items);
    const tags = spots.map((s, i) => ({ ...s, w: tagWidth(items[i]!.text) }));
    for (let i = 0; i < tags.length; i += 1) for (let j = i + 1; j < tags.length; j += 1) expect(overlap(tags[i]!, tags[j]!), `${i} and ${j}`).toBe(false);
    // The first goes above the top-left corner.
    expect(spots[0]).toEqual({ x: 100, y: 100 - TAG_HEIGHT - 2 });
  });
  it('draws a box that coincides with earlier ones inside them', () => {
    const a = { x: 10, y: 10, width: 50, height: 50 };
    expect(insets([a, { ...a, x: 11 }, { x: 200, y: 0, width: 10, height: 10 }, a])).toEqual([0, 4, 0, 8]);
  });
});
