import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';
import { EnvironmentsTogether } from './electron/test-support/vitest-sequencer';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * Each built script and style sheet also compressed, beside it (`.br`, `.gz`): the headless server
 * sends a browser the form it accepts (electron/server/static-ui.ts), about a quarter of the bytes,
 * with no compressing per request. Brotli at 9, not 11: 0.1 s for the whole build against 1.8 s, for 8% more
 * bytes.
 */
function precompressed(): Plugin {
  let outDir = '';
  return {
    name: 'verdict-precompressed',
    apply: 'build',
    configResolved: (config) => void (outDir = config.build.outDir),
    writeBundle(_options, bundle) {
      for (const name of Object.keys(bundle).filter((n) => /\.(js|css)$/.test(n))) {
        const bytes = readFileSync(join(outDir, name));
        const quality = { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length };
        writeFileSync(join(outDir, `${name}.br`), brotliCompressSync(bytes, { params: quality }));
        writeFileSync(join(outDir, `${name}.gz`), gzipSync(bytes, { level: 9 }));
      }
    },
  };
}

export default defineConfig({
  root: here('./renderer'),
  base: '/',
  plugins: [react(), precompressed()],
  build: {
    outDir: here('./dist/renderer'),
    emptyOutDir: true,
    sourcemap: true,
    target: 'es2022',
    // The charting library alone is about 500 kB; it is split off with the Endpoints screen.
    chunkSizeWarningLimit: 700,
  },
  test: {
    root: here('.'),
    include: ['shared/**/*.test.ts', 'electron/**/*.test.ts', 'renderer/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts', 'scripts/**/*.test.mjs'],
    environment: 'node',
    testTimeout: 20_000,
    // Hooks start and stop real servers (PostgreSQL, Redis, team instances, child processes): on a
    // loaded two-core runner (type checking, lint and the build run beside the unit tests) stopping
    // them can take longer than Vitest's 10 s default, which fails a file whose tests all passed.
    hookTimeout: 60_000,
    pool: 'forks',
    // A worker imports the core once for all its files, not once per file (import time was 47 s of
    // the run's 111 s; the whole run now takes about two thirds). What a file changes in the
    // process is undone before the next (electron/test-support/vitest-setup.ts); no file mocks modules.
    isolate: false,
    setupFiles: [here('./electron/test-support/vitest-setup.ts')],
    // One PostgreSQL server for the run, shared by the files that need one (each in databases of its own).
    globalSetup: [here('./electron/test-support/postgres-global.ts')],
    // The files that run in jsdom after the rest, so that workers are not ended and started again between environments.
    sequence: { sequencer: EnvironmentsTogether },
    // The second repeats every failure as the run's last lines, on standard output.
    reporters: ['default', here('./scripts/vitest-failures-reporter.mjs')],
    // One more worker than cores: Vitest's default leaves one core for itself (on 2 cores the files
    // ran one at a time), and with one a core the CPUs were busy only three quarters of the run
    // (files waiting on servers, leases and child processes); with three, 93%.
    maxWorkers: availableParallelism() + 1,
  },
});
