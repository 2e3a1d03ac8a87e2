import { describe, expect, it } from 'vitest';
import { answer, type ImageApi } from './thumbnail-job';

class FakeBitmap {
  closed = false;
  constructor(
    readonly width: number,
    readonly height: number,
    readonly from: string,
  ) {}
  close() {
    this.closed = true;
  }
}

/** A browser stand-in that records each step: the image decodes to `size`, scaled as asked. */
function fakeApi(size: { width: number; height: number }, fail?: 'decode' | 'encode') {
  const bitmaps: FakeBitmap[] = [];
  const steps: string[] = [];
  const api: ImageApi<FakeBitmap> = {
    createImageBitmap: async (source, options) => {
      if (source instanceof Blob) {
        steps.push(`decode ${source.type} ${new Uint8Array(await source.arrayBuffer()).join(',')}`);
        if (fail === 'decode') throw new Error('InvalidStateError: the source image could not be decoded');
        const b = new FakeBitmap(size.width, size.height, 'full');
        bitmaps.push(b);
        return b;
      }
      steps.push(`scale ${source.width}x${source.height} to ${options!.resizeWidth}x${options!.resizeHeight}`);
      const b = new FakeBitmap(options!.resizeWidth, options!.resizeHeight, 'scaled');
      bitmaps.push(b);
      return b;
    },
    canvas: (width, height) => ({
      drawImage: (bitmap) => steps.push(`draw ${bitmap.from} on ${width}x${height}`),
      convertToBlob: async (options) => {
        if (fail === 'encode') throw new Error('encoding failed');
        steps.push(`encode ${options.type}`);
        return new Blob(['png'], { type: options.type });
      },
    }),
  };
  return { api, bitmaps, steps };
}

describe('a thumbnail job', () => {
  const url = `data:image/jpeg;base64,${Buffer.from([255, 216, 255, 1]).toString('base64')}`;

  it("decodes the data: URL's bytes, scales a 6000×4000 image to fit while decoding, encodes a PNG and frees both bitmaps", async () => {
    const { api, bitmaps, steps } = fakeApi({ width: 6000, height: 4000 });
    const reply = await answer({ id: 7, dataUrl: url }, api);
    expect(reply.id).toBe(7);
    expect('blob' in reply && reply.blob.type).toBe('image/png');
    expect(steps).toEqual(['decode image/jpeg 255,216,255,1', 'scale 6000x4000 to 96x64', 'draw scaled on 96x64', 'encode image/png']);
    expect(bitmaps.map((b) => b.closed)).toEqual([true, true]);
  });

  it('answers with the reason and the same id when the image cannot be read, and still frees what it made', async () => {
    expect(await answer({ id: 3, dataUrl: 'https://example.com/a.png' }, fakeApi({ width: 1, height: 1 }).api)).toEqual({
      id: 3,
      error: 'Error: not a base64 data: URL',
    });
    expect(await answer({ id: 4, dataUrl: url }, fakeApi({ width: 10, height: 10 }, 'decode').api)).toEqual({
      id: 4,
      error: 'Error: InvalidStateError: the source image could not be decoded',
    });
    const failing = fakeApi({ width: 200, height: 100 }, 'encode');
    expect(await answer({ id: 5, dataUrl: url }, failing.api)).toEqual({ id: 5, error: 'Error: encoding failed' });
    expect(failing.bitmaps.map((b) => b.closed)).toEqual([true, true]);
  });
});
