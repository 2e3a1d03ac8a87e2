import { afterAll, describe, expect, it } from 'vitest';
import { iou } from '../../../shared/geometry/iou';
import { jpegWithOrientation, pngWithRect } from '../../test-support/images';
import { GatewayError } from '../errors';
import { checkImage, MAX_IMAGE_PIXELS, uprightSize } from './limits';
import { ImagePool } from './pool';

const base64Of = (dataUrl: string) => dataUrl.slice(dataUrl.indexOf(',') + 1);

/** Where a stored pixel rectangle shows once EXIF orientation `o` is applied to a `w` × `h` image (as fractions of the shown image). */
function shown(o: number, w: number, h: number, r: { x: number; y: number; w: number; h: number }) {
  const [x0, y0, x1, y1] = [r.x, r.y, r.x + r.w, r.y + r.h];
  const flipX = (a: number, b: number) => [w - b, w - a] as const;
  const flipY = (a: number, b: number) => [h - b, h - a] as const;
  // Each orientation as what it does to the stored image, in the order EXIF defines them.
  const edges: Record<number, { left: number; right: number; top: number; bottom: number; W: number; H: number }> = {
    1: { left: x0, right: x1, top: y0, bottom: y1, W: w, H: h },
    2: { left: flipX(x0, x1)[0], right: flipX(x0, x1)[1], top: y0, bottom: y1, W: w, H: h },
    3: { left: flipX(x0, x1)[0], right: flipX(x0, x1)[1], top: flipY(y0, y1)[0], bottom: flipY(y0, y1)[1], W: w, H: h },
    4: { left: x0, right: x1, top: flipY(y0, y1)[0], bottom: flipY(y0, y1)[1], W: w, H: h },
    5: { left: y0, right: y1, top: x0, bottom: x1, W: h, H: w },
    6: { left: flipY(y0, y1)[0], right: flipY(y0, y1)[1], top: x0, bottom: x1, W: h, H: w },
    7: { left: flipY(y0, y1)[0], right: flipY(y0, y1)[1], top: flipX(x0, x1)[0], bottom: flipX(x0, x1)[1], W: h, H: w },
    8: { left: y0, right: y1, top: flipX(x0, x1)[0], bottom: flipX(x0, x1)[1], W: h, H: w },
  };
  const e = edges[o]!;
  return { box: { left: e.left / e.W, right: e.right / e.W, top: e.top / e.H, bottom: e.bottom / e.H }, width: e.W, height: e.H };
}

describe('the image pool', () => {
  const pool = new ImagePool({ threads: 1 });
  afterAll(() => pool.close());

  it.each([1, 2, 3, 4, 5, 6, 7, 8])('turns a JPEG with EXIF orientation %i upright: its size and where its object shows are as people see them', async (o) => {
    const rect = { x: 10, y: 6, w: 24, h: 10 };
    const image = base64Of(jpegWithOrientation(90, 60, rect, o));
    const header = checkImage('image/jpeg', image, 'state[0]');
    expect(header.orientation).toBe(o);
    const expected = shown(o, 90, 60, rect);
    expect(uprightSize(header)).toEqual({ width: expected.width, height: expected.height });
    const turned = await pool.upright({ base64: image }, 'state[0]');
    expect({ width: turned.width, height: turned.height }).toEqual({ width: expected.width, height: expected.height });
    // The turned image has no orientation left to apply, and its object is where people saw it.
    expect(checkImage('image/jpeg', turned.base64, 'x').orientation).toBe(1);
    const found = (await pool.foreground({ base64: turned.base64 }))!;
    const box = { top: found.top / found.height, left: found.left / found.width, bottom: found.bottom / found.height, right: found.right / found.width };
    expect(iou(box, expected.box)).toBeGreaterThan(0.85);
  });

  it('finds the object in a PNG, and nothing in a blank image', async () => {
    const found = await pool.foreground({ base64: base64Of(pngWithRect(40, 30, { x: 5, y: 10, w: 20, h: 8 })) });
    expect(found).toEqual({ top: 10, left: 5, bottom: 18, right: 25, width: 40, height: 30 });
    expect(await pool.foreground({ base64: base64Of(pngWithRect(40, 30, { x: 0, y: 0, w: 0, h: 0 })) })).toBeNull();
  });

  it('a JPEG that cannot be decoded is a 400 naming where it was', async () => {
    const broken = Buffer.from(base64Of(jpegWithOrientation(90, 60, { x: 1, y: 1, w: 5, h: 5 }, 6)), 'base64').subarray(0, 400);
    const error = await pool.upright({ base64: broken.toString('base64') }, 'assets.photo').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).status).toBe(400);
    expect((error as GatewayError).message).toMatch(/^assets\.photo: the JPEG image could not be decoded/);
  });

  it('refuses new work with a 503 when its queue is full, rather than holding images without bound', async () => {
    const small = new ImagePool({ threads: 1, maxQueue: 1 });
    const image = base64Of(jpegWithOrientation(400, 300, { x: 10, y: 10, w: 50, h: 50 }, 6));
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => small.upright({ base64: image }, 'state[0]')));
    await small.close();
    const refused = results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason as GatewayError);
    expect(results.some((r) => r.status === 'fulfilled')).toBe(true);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.every((e) => e.status === 503 && e.headers?.['retry-after'] === '5')).toBe(true);
  });
});

describe('an image is checked from its header before anything decodes it', () => {
  const png = (width: number, height: number) => {
    // A PNG signature and an IHDR chunk saying width × height; no pixel data follows.
    const ihdr = Buffer.alloc(25);
    ihdr.writeUInt32BE(13, 0);
    ihdr.write('IHDR', 4, 'latin1');
    ihdr.writeUInt32BE(width, 8);
    ihdr.writeUInt32BE(height, 12);
    ihdr.set([8, 6, 0, 0, 0], 16);
    return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ihdr]).toString('base64');
  };

  it('an image over the pixel limit is refused naming its size and the limit', () => {
    expect(() => checkImage('image/png', png(20000, 20000), 'state[1].image_url.url')).toThrow(
      'state[1].image_url.url: the image is 20000 × 20000 pixels (400 megapixels); at most 40 megapixels are accepted',
    );
    const side = Math.floor(Math.sqrt(MAX_IMAGE_PIXELS));
    expect(checkImage('image/png', png(side, side), 'x')).toEqual({ width: side, height: side, orientation: 1 });
  });

  it('bytes of another format than declared are refused naming both', () => {
    const jpeg = base64Of(jpegWithOrientation(8, 8, { x: 1, y: 1, w: 2, h: 2 }, 1));
    expect(() => checkImage('image/png', jpeg, 'state[0].image_url.url')).toThrow(
      'state[0].image_url.url: the data is a JPEG image, not PNG as it is declared; declare it as image/jpeg',
    );
    expect(() => checkImage('image/png', Buffer.from('hello, not an image').toString('base64'), 'w')).toThrow(
      'w: the data is not a PNG, JPEG, GIF or WebP image',
    );
  });
});
