// `npm run bench:<name>`: bundles electron/bench/<name>.ts (and the upstream it starts) and runs it.
import { spawn } from 'node:child_process';
import { build } from 'esbuild';

const name = process.argv[2];
if (!name) {
  process.stderr.write('usage: node scripts/run-bench.mjs <gateway|decisions>\n');
  process.exit(2);
}
const common = { bundle: true, platform: 'node', target: 'node20', format: 'esm', packages: 'external', logLevel: 'warning' };
await build({ ...common, entryPoints: [`electron/bench/${name}.ts`], outfile: `dist/bench/${name}.mjs` });
await build({ ...common, entryPoints: ['electron/bench/upstream.ts'], outfile: 'dist/bench/upstream.mjs' });
await build({ ...common, entryPoints: ['electron/bench/fleet.ts'], outfile: 'dist/bench/fleet.mjs' });
const child = spawn(process.execPath, [`dist/bench/${name}.mjs`], { stdio: 'inherit' });
child.on('exit', (code) => process.exit(code ?? 1));
