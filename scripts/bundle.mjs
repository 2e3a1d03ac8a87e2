// Bundles the Node-side entry points: the headless server, the Electron main process and the
// preload. Runtime packages stay external (installed by npm); the preload is self-contained
// because a sandboxed preload cannot load modules. The image pool's worker (a thread of its own,
// electron/core/images/image-worker.mjs) goes beside each bundle that starts it.
// `node scripts/bundle.mjs DIR` writes them under DIR instead of dist/ (the package test builds a
// package of its own).
import { build } from 'esbuild';

const common = { bundle: true, platform: 'node', target: 'node20', sourcemap: true, logLevel: 'warning' };
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
