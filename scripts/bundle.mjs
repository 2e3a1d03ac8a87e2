// Bundles the Node-side entry points: the headless server, the Electron main process and the
// preload. Runtime packages stay external (installed by npm); the preload is self-contained
// because a sandboxed preload cannot load modules. The image pool's worker (a thread of its own,
// electron/core/images/image-worker.mjs) goes beside each bundle that starts it.
// `node scripts/bundle.mjs DIR` writes them under DIR instead of dist/ (the package test builds a
// package of its own).
import { build as esbuild } from 'esbuild';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

const common = { bundle: true, platform: 'node', target: 'node20', sourcemap: true, logLevel: 'warning' };

/**
 * esbuild, with each bundle written as ASCII. esbuild escapes every other character in code, but
 * keeps comments as written; one '×' or '≥' in a kept comment makes V8 hold the whole source (about
 * 0.9 MB for the server) as two bytes a character for as long as the process runs. Escaped, it is
 * one byte a character. Only comment text changes, so the source map still fits.
 */
async function build(options) {
  const result = await esbuild({ ...options, write: false });
  for (const file of result.outputFiles) {
    mkdirSync(dirname(file.path), { recursive: true });
    const ascii = /\.(mjs|cjs|js)$/.test(file.path) ? file.text.replace(/[^\t\n\r\x20-\x7e]/g, (c) => `\\u{${c.codePointAt(0).toString(16)}}`) : file.contents;
    writeFileSync(file.path, ascii);
  }
  return result;
}
/** The image pool's worker beside a bundle's `outdir`. */
export const imageWorker = (outdir) =>
  build({ ...common, entryPoints: ['electron/core/images/image-worker.mjs'], outfile: `${outdir}/image-worker.mjs`, format: 'esm', packages: 'external' });

if (import.meta.url === `file://${process.argv[1]}`) {
  const out = process.argv[2] ?? 'dist';
  await Promise.all([
    build({ ...common, entryPoints: ['electron/server/cli.ts'], outfile: `${out}/server/cli.mjs`, format: 'esm', packages: 'external' }),
    build({ ...common, entryPoints: ['electron/server/eval-cli.ts'], outfile: `${out}/server/eval.mjs`, format: 'esm', packages: 'external' }),
    imageWorker(`${out}/server`),
    build({
      ...common,
      entryPoints: ['electron/main/main.ts'],
      outfile: `${out}/electron/main.cjs`,
      format: 'cjs',
      packages: 'external',
      // The core finds files beside itself by import.meta.url, which CommonJS has not.
      define: { 'import.meta.url': '__importMetaUrl' },
      banner: { js: "const __importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
    }),
    imageWorker(`${out}/electron`),
    build({ ...common, entryPoints: ['electron/preload/preload.ts'], outfile: `${out}/electron/preload.cjs`, format: 'cjs', external: ['electron'] }),
  ]);
}
