import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngWithRect } from '../../test-support/images';
import { fetchImage, isPublicAddress, MAX_IMAGE_BYTES } from './image-fetch';

const TLS = join(import.meta.dirname, '..', '..', 'test-support', 'fixtures', 'tls');
const cert = readFileSync(join(TLS, 'images-test.crt'), 'utf8');

/**
 * Image URLs fetched for a request (when the settings allow it), against a real HTTPS server on
 * loopback that presents a certificate for `images.test`: what is fetched, and everything refused.
 */
describe('fetching an image URL', () => {
  let server: Server;
  let base: string;
  const png = Buffer.from(pngWithRect(8, 8, { x: 2, y: 2, w: 4, h: 4 }).split(',')[1]!, 'base64');
  beforeAll(async () => {
    server = createServer({ cert, key: readFileSync(join(TLS, 'images-test.key'), 'utf8') }, (req, res) => {
      if (req.url === '/card.png') return void res.writeHead(200, { 'content-type': 'image/png' }).end(png);
      if (req.url === '/huge.png') return void res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(MAX_IMAGE_BYTES + 1));
      if (req.url === '/page.html') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>');
      if (req.url === '/moved') return void res.writeHead(302, { location: 'https://images.test/card.png' }).end();
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `https://images.test:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  // This server is on loopback: only a test's own policy lets it through.
  const here = { lookup: async () => ['127.0.0.1'], allowAddress: () => true, ca: cert };

  it('an image comes back as a data URL of its own type', async () => {
    expect(await fetchImage(`${base}/card.png`, 'input[0]', here)).toBe(`data:image/png;base64,${png.toString('base64')}`);
  });

  it('refuses what is not an image, too large, moved elsewhere, or not https, naming where', async () => {
    await expect(fetchImage(`${base}/page.html`, 'input[0]', here)).rejects.toThrow(
      'input[0]: the URL is not a PNG, JPEG, GIF or WebP image (content-type text/html)',
    );
    await expect(fetchImage(`${base}/huge.png`, 'input[0]', here)).rejects.toThrow('input[0]: the image is larger than 10 MB');
    await expect(fetchImage(`${base}/moved`, 'input[0]', here)).rejects.toThrow('input[0]: the image URL answered HTTP 302');
    await expect(fetchImage(`http://images.test/card.png`, 'input[0]', here)).rejects.toThrow('only https image URLs are fetched (got http:)');
  });

  it('by default refuses a name that resolves to a private or loopback address, before connecting', async () => {
    await expect(fetchImage(`${base}/card.png`, 'input[0]', { lookup: async () => ['127.0.0.1'], ca: cert })).rejects.toThrow(
      'images.test resolves to 127.0.0.1, which is not a public address',
    );
    await expect(fetchImage('https://[::1]/card.png', 'input[0]')).rejects.toThrow('resolves to ::1, which is not a public address');
    expect(
      ['10.1.2.3', '172.20.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1'].filter(isPublicAddress),
    ).toEqual([]);
    expect(['8.8.8.8', '1.1.1.1', '2606:4700::1111'].every(isPublicAddress)).toBe(true);
  });
});
