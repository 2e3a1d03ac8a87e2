import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeDataUrl, THUMB_HEIGHT, THUMB_WIDTH, thumbnailSize } from './thumbnail-math';

describe('thumbnails', () => {
  it('fit inside the thumbnail, keep the aspect ratio to within a pixel and never enlarge', () => {
    expect(thumbnailSize(6000, 4000)).toEqual({ width: 96, height: 64 });
    expect(thumbnailSize(40, 30)).toEqual({ width: 40, height: 30 });
    expect(thumbnailSize(10_000, 1)).toEqual({ width: 96, height: 1 });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 30_000 }), fc.integer({ min: 1, max: 30_000 }), (w, h) => {
        const t = thumbnailSize(w, h);
        expect(t.width).toBeLessThanOrEqual(Math.min(w, THUMB_WIDTH));
        expect(t.height).toBeLessThanOrEqual(Math.min(h, THUMB_HEIGHT));
        const scale = Math.min(1, THUMB_WIDTH / w, THUMB_HEIGHT / h);
        expect(Math.abs(t.width - w * scale)).toBeLessThanOrEqual(1);
        expect(Math.abs(t.height - h * scale)).toBeLessThanOrEqual(1);
      }),
    );
  });

  it('decode a data: URL to its bytes, and refuse anything else', () => {
    const { type, bytes } = decodeDataUrl(`data:image/png;base64,${Buffer.from([137, 80, 78, 71, 0, 255]).toString('base64')}`);
    expect(type).toBe('image/png');
    expect([...bytes]).toEqual([137, 80, 78, 71, 0, 255]);
    expect(() => decodeDataUrl('https://example.com/a.png')).toThrow(/not a base64 data: URL/);
  });
});
