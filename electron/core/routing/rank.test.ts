import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { kthSmallest, rankHead } from './rank';

describe('rankHead', () => {
  it('equals a full stable sort for the head and counts the rest', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 300 }), fc.integer({ min: 1, max: 64 }), (values, limit) => {
        const items = values.map((v, i) => ({ v, i }));
        const { ranked, unranked } = rankHead(items, (x) => x.v, limit);
        const sorted = [...items].sort((a, b) => a.v - b.v || a.i - b.i);
        expect(ranked).toEqual(sorted.slice(0, Math.min(limit, items.length)));
        expect(unranked).toBe(items.length - ranked.length);
        expect(new Set(ranked.map((x) => x.i)).size).toBe(ranked.length);
      }),
      { numRuns: 400 },
    );
  });

  it('kthSmallest matches sorting', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ noNaN: true, min: -1e6, max: 1e6 }), { minLength: 1, maxLength: 200 }), fc.nat(), (values, seed) => {
        const k = seed % values.length;
        // Numeric equality: 0 and -0 are the same k-th value, whichever of them is returned.
        expect(kthSmallest(Float64Array.from(values), k) === [...values].sort((a, b) => a - b)[k]).toBe(true);
      }),
      { numRuns: 400 },
    );
  });
});
