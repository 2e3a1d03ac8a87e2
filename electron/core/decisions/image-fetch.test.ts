import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer } from 'node:net';
import { createServer as createTlsServer, type Server as TlsServer } from 'node:tls';
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
    await expect(fetchImage(`${base}/card.png`, 'input[0]', { lookup: async () => ['127.0.0.1'], ca: cert })).rejects.toThrow(NOT_PUBLIC);
    // One private address among public ones is enough to refuse: the name could be pointed either way.
    await expect(fetchImage(`${base}/card.png`, 'input[0]', { lookup: async () => ['8.8.8.8', '10.0.0.1'], ca: cert })).rejects.toThrow(NOT_PUBLIC);
    await expect(fetchImage('https://[::1]/card.png', 'input[0]')).rejects.toThrow(NOT_PUBLIC);
  });

  it('a connection that fails says the same whatever answered (refused, not TLS, a certificate for another name)', async () => {
    const closed = await listen(createNetServer((socket) => socket.destroy()));
    const refusedPort = await freePort();
    const anyAddress = { lookup: async () => ['127.0.0.1'], allowAddress: () => true };
    const messages = await Promise.all(
      [`https://images.test:${refusedPort}/x.png`, `https://images.test:${port(closed)}/x.png`, `https://other.test:${port(server)}/card.png`].map((url) =>
        fetchImage(url, 'input[0]', { ...anyAddress, ca: cert }).then(
          () => 'fetched',
          (error: Error) => error.message,
        ),
      ),
    );
    closed.close();
    expect(new Set(messages)).toEqual(new Set(['input[0]: the image could not be fetched from its host']));
  });
});

const NOT_PUBLIC = "input[0]: the image URL's host is not a public internet address; such images are not fetched";

describe('an image URL can reach only the public internet, in whatever form the address is written', () => {
  let listener: TlsServer;
  let connections = 0;
  beforeAll(async () => {
    listener = createTlsServer({ cert, key: readFileSync(join(TLS, 'images-test.key'), 'utf8') }, (socket) => socket.end());
    listener.on('connection', () => (connections += 1));
    await listen(listener);
  });
  afterAll(() => new Promise<void>((resolve) => listener.close(() => resolve())));

  it('refuses every loopback form with one message, and the listener on loopback receives no connection', async () => {
    const p = port(listener);
    const forms = [
      '127.0.0.1',
      '127.1',
      '2130706433',
      '0x7f000001',
      '0177.0.0.1',
      '0x7f.1',
      'localhost',
      'LOCALHOST.',
      'images.localhost',
      '[::ffff:127.0.0.1]',
      '[::ffff:7f00:1]',
      '[0:0:0:0:0:ffff:7f00:1]',
      '[::127.0.0.1]',
      '[64:ff9b::7f00:1]',
      '[64:ff9b:1::7f00:1]',
      '[2002:7f00:1::]',
      '[2001::7f00:1]',
      '[::1]',
      '[::]',
      '0.0.0.0',
      '0',
    ];
    const answers = await Promise.all(
      forms.map((host) =>
        fetchImage(`https://${host}:${p}/x.png`, 'input[0]', { ca: cert }).then(
          () => `${host}: fetched`,
          (error: Error) => error.message,
        ),
      ),
    );
    expect(answers).toEqual(forms.map(() => NOT_PUBLIC));
    expect(connections).toBe(0);
  });

  it('classes every private, link-local, shared, multicast and reserved range as not public, and public unicast as public', () => {
    const notPublic = [
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '127.255.255.254',
      '192.0.0.8',
      '192.0.2.1',
      '198.18.0.1',
      '198.51.100.7',
      '203.0.113.9',
      '224.0.0.1',
      '240.0.0.1',
      '255.255.255.255',
      'fd00::1',
      'fc00::1',
      'fe80::1',
      'fec0::1',
      'ff02::1',
      '::',
      '::1',
      '::ffff:10.0.0.1',
      '::ffff:8.8.8.8',
      '::8.8.8.8',
      '64:ff9b::808:808',
      '2002:808:808::1',
      '2001::1',
      '2001:db8::1',
      '100::1',
      '4000::1',
      'not an address',
    ];
    expect(notPublic.filter(isPublicAddress)).toEqual([]);
    expect(
      ['8.8.8.8', '1.1.1.1', '93.184.216.34', '2606:4700::1111', '2001:4860:4860::8888', '[2a00:1450:4001::200e]'].filter((a) => !isPublicAddress(a)),
    ).toEqual([]);
  });
});

function listen<T extends NetServer>(server: T): Promise<T> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const port = (server: NetServer): number => (server.address() as AddressInfo).port;

async function freePort(): Promise<number> {
  const probe = await listen(createNetServer());
  const free = port(probe);
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return free;
}
