// Bundles the Node-side entry points: the headless server, the Electron main process and the
// preload. Runtime packages stay external (installed by npm); the preload is self-contained
// because a sandboxed preload cannot load modules.
import { build } from 'esbuild';

const common = { bundle: true, platform: 'node', target: 'node20', sourcemap: true, logLevel: 'warning' };

await Promise.all([
  build({ ...common, entryPoints: ['electron/server/cli.ts'], outfile: 'dist/server/cli.mjs', format: 'esm', packages: 'external' }),
  build({ ...common, entryPoints: ['electron/server/eval-cli.ts'], outfile: 'dist/server/eval.mjs', format: 'esm', packages: 'external' }),
  build({ ...common, entryPoints: ['electron/main/main.ts'], outfile: 'dist/electron/main.cjs', format: 'cjs', packages: 'external' }),
  build({ ...common, entryPoints: ['electron/preload/preload.ts'], outfile: 'dist/electron/preload.cjs', format: 'cjs', external: ['electron'] }),
]);
