import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { electronBinary } from './lib/electron-binary.mjs';

const dirs = [];
const temp = () => {
  const dir = mkdtempSync(join(tmpdir(), 'verdict-scripts-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('npm start without the Electron binary', () => {
  it('tries the download once, remembers that it failed, and says how to retry', () => {
    const dir = temp();
    const markerFile = join(dir, 'cache', 'electron-download-failed');
    let fetches = 0;
    const fetch = () => {
      fetches += 1;
      return 'failed';
    };
    const first = electronBinary({ electronDir: join(dir, 'electron'), markerFile, fetch, say: () => undefined });
    expect(fetches).toBe(1);
    expect(first.why).toContain('VERDICT_FETCH_ELECTRON=1 npm start');
    expect(existsSync(markerFile)).toBe(true);

    const second = electronBinary({ electronDir: join(dir, 'electron'), markerFile, fetch, say: () => undefined });
    expect(fetches).toBe(1);
    expect(second.why).toMatch(/download failed on .*not trying again.*VERDICT_FETCH_ELECTRON=1 npm start/);

    electronBinary({ electronDir: join(dir, 'electron'), markerFile, fetch, retry: true, say: () => undefined });
    expect(fetches).toBe(2);
  });

  it('uses an installed binary and forgets an earlier failure once the download worked', () => {
    const dir = temp();
    const electronDir = join(dir, 'electron');
    const markerFile = join(dir, 'electron-download-failed');
    writeFileSync(markerFile, 'failed on 2026-01-01\n');
    const fetch = () => {
      mkdirSync(join(electronDir, 'dist'), { recursive: true });
      writeFileSync(join(electronDir, 'path.txt'), 'electron');
      writeFileSync(join(electronDir, 'dist', 'electron'), '');
      return 'failed';
    };
    const result = electronBinary({ electronDir, markerFile, fetch, retry: true, say: () => undefined });
    expect(result.path).toBe(join(electronDir, 'dist', 'electron'));
    expect(existsSync(markerFile)).toBe(false);
  });
});

describe('npm test and its Chromium', () => {
  const check = (env) => spawnSync(process.execPath, ['scripts/check-chromium.mjs'], { encoding: 'utf8', env: { ...process.env, ...env } });

  it('with no Chromium on the machine, uses the one from npm and says so, and why', () => {
    const nowhere = join(temp(), 'no-chromium');
    const result = check({ CHROMIUM_PATH: nowhere, VERDICT_SYSTEM_CHROMIUM: nowhere });
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^Browser tests: Chromium 153\.[\d.]+, the Chromium inside @sparticuz\/chromium, at \S+\/chromium \(/);
    expect(result.stdout).toContain(`(CHROMIUM_PATH (${nowhere}) is not an executable file; there is no Chromium at ${nowhere}).`);
  });

  it('stops at once, saying why, when the Chromium it would use does not start', () => {
    const started = Date.now();
    const broken = join(temp(), 'chromium');
    writeFileSync(broken, '#!/bin/sh\necho "cannot open display" >&2\nexit 1\n', { mode: 0o755 });
    const result = check({ CHROMIUM_PATH: broken });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`the Chromium named by CHROMIUM_PATH at ${broken} (CHROMIUM_PATH names it), but it does not start: cannot open display`);
    expect(result.stderr).toContain('unset it to use the one from npm');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('runs first in npm test and npm run test:e2e', async () => {
    const { scripts } = (await import('../package.json', { with: { type: 'json' } })).default;
    expect(scripts.test.startsWith('node scripts/check-chromium.mjs && ')).toBe(true);
    expect(scripts['test:e2e'].startsWith('node scripts/check-chromium.mjs && ')).toBe(true);
  });
});
