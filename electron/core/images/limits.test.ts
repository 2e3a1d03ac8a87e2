import { describe, expect, it } from 'vitest';
import { jpegWithOrientation } from '../../test-support/images';
import { GatewayError } from '../errors';
import { checkImage } from './limits';

const base64Of = (dataUrl: string) => dataUrl.slice(dataUrl.indexOf(',') + 1);

/** The JPEG with `count` APP2 blocks of `size` bytes (a large colour profile) before everything else, after its start marker. */
function withColourProfile(jpeg: Buffer, count: number, size = 65_533): Buffer {
  const block = (): Buffer => {
    const segment = Buffer.alloc(2 + 2 + size);
    segment.writeUInt16BE(0xffe2, 0);
    segment.writeUInt16BE(size + 2, 2);
    segment.write('ICC_PROFILE\0', 4, 'latin1');
    return segment;
  };
  return Buffer.concat([jpeg.subarray(0, 2), ...Array.from({ length: count }, block), jpeg.subarray(2)]);
}

describe('an image header read from the first bytes', () => {
  const small = Buffer.from(base64Of(jpegWithOrientation(90, 60, { x: 10, y: 6, w: 24, h: 10 }, 6)), 'base64');

  it('a JPEG whose frame header lies past the first 128 KiB (three 64 KiB colour-profile blocks) is still sized, with its orientation', () => {
    const padded = withColourProfile(small, 3);
    expect(padded.length).toBeGreaterThan(196_000);
    expect(checkImage('image/jpeg', padded.toString('base64'), 'state[0]')).toEqual({ width: 90, height: 60, orientation: 6 });
  });

  it('a JPEG cut off before its frame header is a 400 naming where, whether the cut is inside the first bytes read or past them', () => {
    for (const blocks of [1, 3]) {
      const padded = withColourProfile(small, blocks);
      const cut = padded.subarray(0, 2 + blocks * 65_537 + 4).toString('base64');
      let error: unknown;
      try {
        checkImage('image/jpeg', cut, 'state[2].image_url.url');
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(GatewayError);
      expect((error as GatewayError).message).toBe("state[2].image_url.url: the JPEG image's header could not be read");
    }
  });
});
