// The package as a project that depends on Verdict installs it: packed from this checkout's
// package.json (its bin and files) with freshly bundled dist/server files, installed from the
// tarball into a scratch project, and run as `npx --no verdict …` there (`--no`: npx refuses to
// fetch a package of that name from the registry if the project's own is missing).
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const exec = promisify(execFile);
/** Runs a command, resolving with its exit code and output whatever the code. */
const run = (file, args, options) =>
  exec(file, args, { maxBuffer: 16 * 1024 * 1024, ...options }).then(
    (r) => ({ code: 0, ...r }),
    (e) => ({ code: e.code, stdout: e.stdout ?? '', stderr: e.stderr ?? '' }),
  );

describe('npx verdict from a project that installs the packed package', () => {
  const dir = mkdtempSync(join(tmpdir(), 'verdict-package-'));
  const stage = join(dir, 'stage');
  const scratch = join(dir, 'scratch');
  const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
  let packed = [];
  const npx = (args, env = {}) => run('npx', ['--no', 'verdict', ...args], { cwd: scratch, env: { ...process.env, VERDICT_LOG_LEVEL: 'error', ...env } });

  beforeAll(async () => {
    mkdirSync(join(stage, 'docs'), { recursive: true });
    mkdirSync(scratch);
    for (const f of ['package.json', 'README.md', 'bin', 'docs/eval-report.schema.json']) cpSync(f, join(stage, f), { recursive: true });
    const bundled = await run(process.execPath, ['scripts/bundle.mjs', join(stage, 'dist')]);
    expect(bundled.code, bundled.stderr).toBe(0);
    // Scripts are left out: `prepack` builds the renderer too, which this test does not need.
    const pack = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: stage });
    expect(pack.code, pack.stderr).toBe(0);
    const [info] = JSON.parse(pack.stdout);
    packed = info.files.map((f) => f.path);
    writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'scratch', private: true }));
    const install = await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts', join(dir, info.filename)], {
      cwd: scratch,
    });
    expect(install.code, install.stderr).toBe(0);
  }, 300_000);
  // The scratch project's node_modules is a few hundred megabytes: removing it takes a while on a busy machine.
  afterAll(() => rm(dir, { recursive: true, force: true }), 120_000);

  it('packs the command and its bundles, not the sources', () => {
    expect(pkg.bin).toEqual({ verdict: 'bin/verdict.mjs' });
    expect(packed).toEqual(
      expect.arrayContaining(['bin/verdict.mjs', 'dist/server/eval.mjs', 'dist/server/cli.mjs', 'docs/eval-report.schema.json', 'package.json']),
    );
    expect(packed.filter((p) => p.startsWith('electron/') || p.startsWith('renderer/') || p.startsWith('shared/'))).toEqual([]);
  });

  it('answers verdict eval --help with every option of the gate, and verdict serve --help', async () => {
    const help = await npx(['eval', '--help']);
    expect(help.code, help.stderr).toBe(0);
    for (const flag of [
      '--set',
      '--dataset',
      '--model',
      '--threshold',
      '--report',
      '--results',
      '--format',
      '--junit',
      '--summary',
      '--baseline',
      '--fail-under',
      '--fail-over',
      '--fail-on-regression',
      '--regression-metrics',
      '--gate-on',
      '--min-items',
      '--allow-insufficient',
      '--budget',
      '--cascade',
    ])
      expect(help.stdout, flag).toContain(flag);
    expect(help.stdout).toMatch(/Exit 0: completed and every threshold met; 3: completed with a threshold not met/);
    const serve = await npx(['serve', '--help']);
    expect(serve.code, serve.stderr).toBe(0);
    expect(serve.stdout).toContain('--data-dir');
    const none = await npx([]);
    expect(none.code).toBe(2);
    expect(none.stdout).toContain('verdict eval --set SET.json');
  }, 180_000);

  it('runs an evaluation from the installed package on the simulated providers, and gates it', async () => {
    writeFileSync(
      join(scratch, 'set.json'),
      JSON.stringify({ model: 'sandbox/cheap-mini', state: '', questions: { late: { type: 'noul', instructions: 'Did the parcel come late?' } } }),
    );
    const lines = Array.from({ length: 12 }, (_, i) =>
      JSON.stringify({ id: `t${i}`, state: `Ticket ${i}: the parcel came ${i % 2 ? 'on time' : 'three days late'}`, expected: { late: i % 2 === 0 } }),
    );
    writeFileSync(join(scratch, 'data.jsonl'), lines.join('\n'));
    const args = ['eval', '--data-dir', 'data', '--set', 'set.json', '--dataset', 'data.jsonl', '--model', 'sandbox/cheap-mini', '--report', 'report.json'];
    // A limit of 0 is always met (the low end of an interval of shares is at least 0); 1.0 only by a Wilson low end of 1, which no sample of 12 has.
    const met = await npx([...args, '--fail-under', 'late.accuracy=0', '--min-items', '5'], { VERDICT_SANDBOX_TIME_SCALE: '0' });
    expect(met.code, met.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(scratch, 'report.json'), 'utf8'));
    expect(report).toMatchObject({ report_version: 1, verdict_version: pkg.version, outcome: 'pass', dataset: { items: 12 } });
    const unmet = await npx([...args, '--fail-under', 'late.accuracy=1', '--min-items', '5'], { VERDICT_SANDBOX_TIME_SCALE: '0' });
    expect(unmet.code, unmet.stderr).toBe(3);
    expect(unmet.stdout).toMatch(/NOT MET {2}sandbox\/cheap-mini late\.accuracy = [\d.]+ \(95% Wilson interval/);
  }, 240_000);
});
