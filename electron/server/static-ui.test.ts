import { mkdirSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/temp-core';
import { ASSET_CACHE, PAGE_CACHE, staticUi } from './static-ui';

describe('the built UI as the server serves it, and what a browser may keep of it', () => {
  let dir: ReturnType<typeof tempDir>;
  let ui: ReturnType<typeof staticUi>;
  const script = 'console.log("the first screen");';
  const page = '<!doctype html><script type="module" src="/assets/index-Ab12Cd.js"></script>';
  beforeAll(() => {
    dir = tempDir();
    mkdirSync(join(dir.path, 'assets'));
    writeFileSync(join(dir.path, 'assets', 'index-Ab12Cd.js'), script);
    // As the build writes them (vite.config.ts): each script compressed beside it.
    writeFileSync(join(dir.path, 'assets', 'index-Ab12Cd.js.br'), brotliCompressSync(script));
    writeFileSync(join(dir.path, 'assets', 'index-Ab12Cd.js.gz'), gzipSync(script));
    writeFileSync(join(dir.path, 'index.html'), page);
    ui = staticUi(dir.path);
  });
  afterAll(() => dir.cleanup());

  it('keeps a built file under /assets/ a year without asking again: its name changes with its content', async () => {
    const response = await ui.request('/assets/index-Ab12Cd.js');
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(script);
    expect(response.headers.get('cache-control')).toBe(ASSET_CACHE);
    expect(ASSET_CACHE).toMatch(/\bimmutable\b/);
  });

  it('sends a script compressed as the browser accepts it, brotli before gzip, and whole to one that accepts neither', async () => {
    const asked = async (acceptEncoding: string | null) => {
      const response = await ui.request('/assets/index-Ab12Cd.js', { headers: acceptEncoding === null ? {} : { 'accept-encoding': acceptEncoding } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/javascript/);
      expect(response.headers.get('cache-control')).toBe(ASSET_CACHE);
      return { encoding: response.headers.get('content-encoding'), vary: response.headers.get('vary'), bytes: Buffer.from(await response.arrayBuffer()) };
    };
    const br = await asked('gzip, deflate, br');
    expect(br.encoding).toBe('br');
    expect(br.vary).toBe('Accept-Encoding');
    expect(brotliDecompressSync(br.bytes).toString()).toBe(script);
    const gzip = await asked('gzip, deflate');
    expect(gzip.encoding).toBe('gzip');
    expect(gunzipSync(gzip.bytes).toString()).toBe(script);
    const plain = await asked(null);
    expect(plain.encoding).toBeNull();
    expect(plain.bytes.toString()).toBe(script);
  });

  it('asks for the page again on every load, at its own address and at a deep link, so a new build is seen at once', async () => {
    for (const path of ['/', '/index.html', '/evaluations/runs/42']) {
      const response = await ui.request(path);
      expect(response.status, path).toBe(200);
      expect(await response.text(), path).toBe(page);
      expect(response.headers.get('cache-control'), path).toBe(PAGE_CACHE);
    }
  });

  it('never lets a browser keep the page as an asset: a missing file under /assets/ gets the page, asked for again', async () => {
    const response = await ui.request('/assets/index-Gone99.js');
    expect(await response.text()).toBe(page);
    expect(response.headers.get('cache-control')).toBe(PAGE_CACHE);
  });
});
