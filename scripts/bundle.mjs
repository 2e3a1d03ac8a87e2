// Bundles the Node-side entry points: the headless server, the Electron main process and the
// preload. Runtime packages stay external (installed by npm); the preload is self-contained
// because a sandboxed preload cannot load modules. `node scripts/bundle.mjs DIR` writes them under
// DIR instead of dist/ (the package test builds a package of its own).
import { build } from 'esbuild';

const out = process.argv[2] ?? 'dist';

const common = { bundle: true, platform: 'node', target: 'node20', sourcemap: true, logLevel: 'warning' };

await Promise.all([
  build({ ...common, entryPoints: ['electron/server/cli.ts'], outfile: `${out}/server/cli.mjs`, format: 'esm', packages: 'external' }),
  build({ ...common, entryPoints: ['electron/server/eval-cli.ts'], outfile: `${out}/server/eval.mjs`, format: 'esm', packages: 'external' }),
  build({ ...common, entryPoints: ['electron/main/main.ts'], outfile: `${out}/electron/main.cjs`, format: 'cjs', packages: 'external' }),
  build({ ...common, entryPoints: ['electron/preload/preload.ts'], outfile: `${out}/electron/preload.cjs`, format: 'cjs', external: ['electron'] }),
]);
