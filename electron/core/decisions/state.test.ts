import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../errors';
import { pngWithRect } from '../../test-support/images';
import { isBase64, stateParts } from './state';

/** The rule written out independently: the alphabet by a regular expression, then the lengths base64 can have. */
function oracle(text: string): boolean {
  const match = /^([A-Za-z0-9+/]+)(={0,2})$/.exec(text);
  if (!match) return false;
  const data = match[1]!.length;
  const pad = match[2]!.length;
  return data % 4 !== 1 && (pad === 0 || (data + pad) % 4 === 0);
}

describe('isBase64', () => {
  it('accepts what Buffer encodes, padded or not', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 64 }), (bytes) => {
        const text = Buffer.from(bytes).toString('base64');
        expect(isBase64(text)).toBe(true);
        expect(isBase64(text.replace(/=+$/, ''))).toBe(true);
      }),
    );
  });

  it('agrees with the alphabet and length rules on strings with stray characters', () => {
    const chars = fc.constantFrom(...'ABCDwxyz0189+/'.split(''), '=', '-', '_', ' ', '\n', '$', '.', 'é', '\u{1F600}');
    fc.assert(
      fc.property(fc.array(chars, { minLength: 0, maxLength: 24 }), (list) => {
        const text = list.join('');
        expect(isBase64(text)).toBe(oracle(text));
      }),
      { numRuns: 5000 },
    );
  });

  it('one wrong character anywhere in a megapixel image is found', () => {
    const text = randomBytes(900_000).toString('base64');
    expect(isBase64(text)).toBe(true);
    // Beside the edges of the stretches it is decoded in (64 Ki characters) too.
    for (const at of [0, 1, 2, 3, 1000, 65_535, 65_536, 65_537, 131_071, text.length - 3]) {
      for (const bad of ['$', '-', '_', ' ', '=', 'é']) expect(isBase64(text.slice(0, at) + bad + text.slice(at + 1)), `${bad} at ${at}`).toBe(false);
    }
  });
});

describe('stateParts', () => {
  it('reads image data: URLs and names a bad one by its index', () => {
    const dataUrl = pngWithRect(4, 3, { x: 1, y: 1, w: 1, h: 1 });
    const png = dataUrl.slice(dataUrl.indexOf(',') + 1);
    const { parts, images } = stateParts([
      { type: 'text', text: 'look' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } },
    ] as never);
    expect(images).toBe(1);
    // A signature with no header after it is not an image anyone can read.
    expect(() =>
      stateParts([{ type: 'image_url', image_url: { url: `data:image/png;base64,${Buffer.from('89504e470d0a1a0a', 'hex').toString('base64')}` } }] as never),
    ).toThrow("state[0].image_url.url: the PNG image's header could not be read");
    expect(parts[1]).toEqual({ type: 'image', mediaType: 'image/png', base64: png });
    const bad = () =>
      stateParts([
        { type: 'text', text: 'x' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${png.slice(0, -2)}$$` } },
      ] as never);
    expect(bad).toThrow(GatewayError);
    expect(bad).toThrow('state[1].image_url.url: expected a base64 PNG, JPEG, GIF or WebP data: URL');
    expect(() => stateParts([{ type: 'image_url', image_url: { url: 'https://example.com/a.png' } }] as never)).toThrow(/only data: URLs are accepted/);
  });
});
