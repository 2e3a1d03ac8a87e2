import { defineConfig } from '@playwright/test';
import { findChromium } from '../scripts/lib/chromium.mjs';

/**
 * Browser-mode e2e in Chromium: the system's when there is one (CHROMIUM_PATH, else
 * /usr/bin/chromium), else the one inside the npm package @sparticuz/chromium; never a browser
 * downloaded at test time. Both render with the same fonts (scripts/lib/chromium.mjs). Journeys
 * start the built headless server (see fixtures/server.ts).
 */
const chromium = await findChromium();

export default defineConfig({
  testDir: '.',
  testMatch: /.*\.spec\.ts$/,
  outputDir: '../test-results',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  timeout: 30_000,
  reporter: [['list']],
  use: {
    viewport: { width: 1280, height: 800 },
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromium.path,
      env: { ...process.env, FONTCONFIG_FILE: chromium.fontsConfig },
      // The package's own `args` are for AWS Lambda (--single-process, --disable-web-security, a
      // software GL stack): none is needed here, and some would change what the journeys test.
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
