// `npm run bench:<name>`: bundles electron/bench/<name>.ts (and the upstream it starts) and runs it.
// `npm run bench` runs both; `-- --write-docs` also updates docs/BENCHMARKS.md (otherwise only the
// untracked bench-results.md is written). `--smoke` (`npm run bench:smoke`, run by CI) runs one short
// round of the gateway's path (a) on SQLite, (e) and the idle server: it checks that the bench still runs and
// fails only when a request fails, never on a figure (a shared CI machine's timings are noise).
import { spawn } from 'node:child_process';
import { build } from 'esbuild';
import { findChromium } from './lib/chromium.mjs';
import { imageWorker } from './bundle.mjs';

const names = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const flags = process.argv.slice(2).filter((a) => a.startsWith('--'));
const unknown = flags.filter((f) => f !== '--write-docs' && f !== '--smoke');
const BENCHES = ['gateway', 'decisions', 'evaluations', 'images'];
if (names.length === 0 || unknown.length > 0 || names.some((n) => !BENCHES.includes(n))) {
  process.stderr.write(
    `usage: node scripts/run-bench.mjs <${BENCHES.join('|')}>... [--write-docs]${unknown.length ? ` (unknown: ${unknown.join(' ')})` : ''}\n`,
  );
  process.exit(2);
}
const common = { bundle: true, platform: 'node', target: 'node20', format: 'esm', packages: 'external', logLevel: 'warning' };
await build({ ...common, entryPoints: ['electron/bench/upstream.ts'], outfile: 'dist/bench/upstream.mjs' });
await imageWorker('dist/bench');
await build({ ...common, entryPoints: ['electron/bench/fleet.ts'], outfile: 'dist/bench/fleet.mjs' });
await build({ ...common, entryPoints: ['electron/bench/node-floor.ts'], outfile: 'dist/bench/node-floor.mjs' });
// The results matrix is measured in the Chromium the browser tests use (scripts/lib/chromium.mjs).
const env = { ...process.env };
if (flags.includes('--smoke'))
  Object.assign(env, { VERDICT_BENCH_QUICK: '1', VERDICT_BENCH_SMOKE: '1', VERDICT_BENCH_ONLY: env.VERDICT_BENCH_ONLY ?? 'a,e,idle' });
if (names.includes('evaluations')) {
  const chromium = await findChromium();
  Object.assign(env, { CHROMIUM_PATH: chromium.path, FONTCONFIG_FILE: chromium.fontsConfig });
}
for (const name of names) {
  await build({ ...common, entryPoints: [`electron/bench/${name}.ts`], outfile: `dist/bench/${name}.mjs` });
  const code = await new Promise((resolve) =>
    spawn(process.execPath, [`dist/bench/${name}.mjs`, ...flags.filter((f) => f !== '--smoke')], { stdio: 'inherit', env }).on('exit', (c) => resolve(c ?? 1)),
  );
  if (code !== 0) process.exit(code);
}
