import { availableParallelism } from 'node:os';
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
  // One more journey than cores: much of a journey's time is spent waiting on its server, the
  // simulated providers or the browser, so a third journey on 2 cores ran them about a tenth faster
  // (median of 4 runs each, on a machine shared with other work: 81 s against 91 s).
  workers: availableParallelism() + 1,
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
      // The same flags for either browser. None of @sparticuz/chromium's own `args` (made for AWS
      // Lambda) is needed: Playwright passes --headless itself; --single-process and --no-zygote
      // put every page in one process (one crash ends the run); --disable-web-security,
      // --allow-running-insecure-content and site isolation turned off would hide the same-origin,
      // cookie and Content-Security-Policy behaviour journeys check; its SwiftShader GL flags are
      // moot with --disable-gpu; --font-render-hinting=none would draw text unlike a system Chromium.
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
