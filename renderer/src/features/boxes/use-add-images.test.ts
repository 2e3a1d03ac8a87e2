import { describe, expect, it } from 'vitest';
import { chunksOf } from './use-add-images';

const files = (sizes: number[], type = 'image/png') => sizes.map((size, i) => ({ name: `f${i}`, size, type }));

describe('adding images a few at a time', () => {
  it('sends the first screen first, then chunks of images bounded by count and bytes, in order', () => {
    const small = [...chunksOf(files(Array.from({ length: 40 }, () => 1000)))];
    expect(small.map((c) => c.length)).toEqual([10, 24, 6]);
    expect(small.flat().map((f) => f.name)).toEqual(files(Array.from({ length: 40 }, () => 1000)).map((f) => f.name));
    // Large files go a few at a time; one larger than the limit goes alone.
    expect([...chunksOf(files([4e6, 4e6, 9e6, 1e6]))].map((c) => c.map((f) => f.name))).toEqual([['f0'], ['f1'], ['f2'], ['f3']]);
    expect([...chunksOf([])]).toEqual([]);
    // Files that are not images are passed over (a folder may hold labels or notes).
    expect([...chunksOf([...files([1], 'text/csv'), ...files([1, 1])])].map((c) => c.length)).toEqual([2]);
  });
});
