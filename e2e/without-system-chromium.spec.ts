import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect } from '@playwright/test';

/**
 * A newcomer's machine: no Chromium installed and a CHROMIUM_PATH that names nothing. The check says
 * it uses the Chromium from npm, and journeys run in it and pass. (VERDICT_SYSTEM_CHROMIUM hides
 * the system path, so this holds on machines that have one too.)
 */

const ROOT = join(import.meta.dirname, '..');
const PLAYWRIGHT = join(createRequire(import.meta.url).resolve('@playwright/test'), '..', 'cli.js');

test('with no system Chromium and CHROMIUM_PATH naming nothing, the browser tests run in the Chromium from npm', async () => {
  test.setTimeout(120_000);
  const scratch = mkdtempSync(join(tmpdir(), 'verdict-e2e-nested-'));
  const nowhere = join(scratch, 'no-chromium');
  const env = { ...process.env, CHROMIUM_PATH: nowhere, VERDICT_SYSTEM_CHROMIUM: nowhere };
  try {
    const check = spawnSync(process.execPath, ['scripts/check-chromium.mjs'], { cwd: ROOT, env, encoding: 'utf8' });
    expect(check.stderr).toBe('');
    expect(check.stdout).toContain('the Chromium inside @sparticuz/chromium');
    expect(check.stdout).toContain(`there is no Chromium at ${nowhere}`);

    const journeys = ['moves between screens with the keyboard', 'screens are drawn in the fonts the tests provide'];
    const run = spawnSync(
      process.execPath,
      [
        PLAYWRIGHT,
        'test',
        '-c',
        'e2e/playwright.config.ts',
        'e2e/navigation.spec.ts',
        '--grep',
        journeys.join('|'),
        '--workers',
        '1',
        '--reporter',
        'line',
        '--output',
        join(scratch, 'results'),
      ],
      { cwd: ROOT, env, encoding: 'utf8', timeout: 110_000 },
    );
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain(`${journeys.length} passed`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});
