import type { Foreground } from '../images/pool';

/*
 * The sandbox's box baseline reads simple image statistics (the background is the mean colour of
 * the four corners, and the box encloses every pixel that differs from it clearly; no model). The
 * statistics are taken on the image pool's threads (`ImagePool.foreground`, images/pixels.mjs);
 * here the box found is stated as a model of each family would state it.
 */

/** The box in the convention the prompt asks for, as a simulated model of that family would state it. */
export function statedBox(box: Foreground, prompt: string): string {
  const f = { top: box.top / box.height, left: box.left / box.width, bottom: box.bottom / box.height, right: box.right / box.width };
  const k = (v: number) => Math.round(v * 1000);
  if (prompt.includes('"box_2d"')) return JSON.stringify({ box_2d: [k(f.top), k(f.left), k(f.bottom), k(f.right)] });
  if (prompt.includes('"bbox_2d"') && prompt.includes('0-1000')) return JSON.stringify({ bbox_2d: [k(f.left), k(f.top), k(f.right), k(f.bottom)] });
  const pixels = /it is (\d+) x (\d+) pixels/.exec(prompt);
  if (prompt.includes('"bbox_2d"') && pixels) {
    const [w, h] = [Number(pixels[1]), Number(pixels[2])];
    return JSON.stringify({ bbox_2d: [Math.round(f.left * w), Math.round(f.top * h), Math.round(f.right * w), Math.round(f.bottom * h)] });
  }
  return JSON.stringify({ box: f });
}
