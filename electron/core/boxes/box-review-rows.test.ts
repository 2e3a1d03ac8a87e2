import { describe, expect, it } from 'vitest';
import { jpegWithOrientation, pngWithRect } from '../../test-support/images';
import { boxAnswersOf, expectedWithTruth, imageUrlOf, sizeFromHead, truthFromExpected } from './box-review-rows';

const card = { top: 0.1, left: 0.2, bottom: 0.5, right: 0.6 };
const badge = { top: 0.6, left: 0.1, bottom: 0.9, right: 0.3 };

describe('dataset items as box reviews', () => {
  it("reads expected boxes as labelled truth and writes truth back, keeping other questions' answers", () => {
    expect(truthFromExpected({ card, badge, count: 2, late: true })).toEqual([
      { label: 'card', ...card },
      { label: 'badge', ...badge },
    ]);
    const truth = [{ label: 'card', ...badge }, { ...card }, { label: 'card', ...card }];
    // The first box of each label is its question's answer; an unlabelled one is question "box".
    expect(expectedWithTruth({ card, badge, count: 2 }, truth)).toEqual({ count: 2, card: badge, box: card });
    expect(expectedWithTruth({ card, count: 2 }, [])).toEqual({ count: 2 });
  });

  it('takes the box answers of a stored result, in question order, and nothing from a bad one', () => {
    const stored = JSON.stringify({
      zeta: { type: 'box', box: { ...card, extra: 1 }, probability: 0.9 },
      count: { type: 'score', score: 2 },
      alpha: { type: 'box', box: badge },
    });
    expect(JSON.stringify(boxAnswersOf(stored))).toBe(JSON.stringify({ alpha: badge, zeta: card }));
    expect(boxAnswersOf('{not json')).toEqual({});
    expect(boxAnswersOf(null)).toEqual({});
  });

  it('finds the first image of a state', () => {
    expect(imageUrlOf(['Find them.', { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }])).toBe('data:image/png;base64,AAAA');
    expect(imageUrlOf('text only')).toBeNull();
  });

  it("reads the image's size off the start of its state's JSON", () => {
    const state = (url: string) => JSON.stringify([{ type: 'image_url', image_url: { url } }]);
    expect(sizeFromHead(state(pngWithRect(640, 480, { x: 1, y: 1, w: 5, h: 5 })).slice(0, 1600))).toEqual({ width: 640, height: 480 });
    expect(sizeFromHead(state(jpegWithOrientation(320, 200, { x: 1, y: 1, w: 5, h: 5 }, 1)).slice(0, 1600))).toEqual({ width: 320, height: 200 });
    expect(sizeFromHead('"plain text"')).toEqual({ width: null, height: null });
    expect(sizeFromHead(state('data:image/png;base64,AAAA'))).toEqual({ width: null, height: null });
  });
});
