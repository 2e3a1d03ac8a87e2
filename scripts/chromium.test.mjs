import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bundledVersion, findChromium, versionOf } from './lib/chromium.mjs';

const dirs = [];
/** An executable that answers --version as a browser would. */
const browserAt = (name) => {
  const dir = mkdtempSync(join(tmpdir(), 'verdict-scripts-'));
  dirs.push(dir);
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\necho "${name} 1.2.3"\n`);
  chmodSync(path, 0o755);
  return path;
};
const NOWHERE = join(tmpdir(), 'verdict-no-such-dir', 'chromium');
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('which Chromium the browser tests use', () => {
  it('CHROMIUM_PATH first, even beside a system Chromium', async () => {
    const named = browserAt('named');
    const found = await findChromium({ CHROMIUM_PATH: named, VERDICT_SYSTEM_CHROMIUM: browserAt('system') });
    expect(found).toMatchObject({ path: named, source: 'CHROMIUM_PATH' });
  });

  it('a system Chromium before the one from npm, and says why', async () => {
    const system = browserAt('system');
    const found = await findChromium({ CHROMIUM_PATH: NOWHERE, VERDICT_SYSTEM_CHROMIUM: system });
    expect(found).toMatchObject({ path: system, source: 'system' });
    expect(found.why).toBe(`CHROMIUM_PATH (${NOWHERE}) is not an executable file; a system Chromium is at ${system}`);
  });

  it('with neither, the Chromium inside @sparticuz/chromium, unpacked whole, which starts', async () => {
    const found = await findChromium({ CHROMIUM_PATH: NOWHERE, VERDICT_SYSTEM_CHROMIUM: NOWHERE });
    expect(found.source).toBe('bundled');
    expect(found.why).toBe(`CHROMIUM_PATH (${NOWHERE}) is not an executable file; there is no Chromium at ${NOWHERE}`);
    expect(found.path).toBe(join(tmpdir(), `verdict-chromium-${bundledVersion()}`, 'chromium'));
    const major = bundledVersion().split('.')[0];
    expect(versionOf(found.path).version).toMatch(new RegExp(`^Chromium ${major}\\.`));
    // No half-unpacked copy is left beside it.
    expect(readdirSync(tmpdir()).filter((f) => f.startsWith('verdict-chromium-') && f.includes('.unpacking-'))).toEqual([]);
  }, 60_000);

  it('either way, a fonts file that offers the shipped Open Sans and no font of a browser package', async () => {
    const found = await findChromium({ VERDICT_SYSTEM_CHROMIUM: browserAt('system') });
    const config = readFileSync(found.fontsConfig, 'utf8');
    const dirsNamed = [...config.matchAll(/<dir>([^<]+)<\/dir>/g)].map((m) => m[1]);
    expect(dirsNamed).toEqual([join(tmpdir(), `verdict-fonts-${bundledVersion()}`, 'fonts'), '/usr/share/fonts/truetype/dejavu']);
    expect(existsSync(join(dirsNamed[0], 'fonts', 'Open_Sans', 'OpenSans-Regular.ttf'))).toBe(true);
    expect(config).toContain('<family>sans-serif</family><prefer><family>Open Sans</family></prefer>');
  });

  it('a CHROMIUM_PATH that does not start is named with the reason', () => {
    const broken = browserAt('broken');
    writeFileSync(broken, '#!/bin/sh\necho "no display" >&2\nexit 3\n');
    expect(versionOf(broken)).toEqual({ error: 'no display' });
  });
});
