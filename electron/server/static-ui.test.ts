import { mkdirSync, writeFileSync } from 'node:fs';
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
