import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/temp-core';
import { atMost, below, formatForTerminal, publish, RESULTS_FILE, row } from './report';

const ROWS = [
  row('added latency p50', '0.25 ms', atMost(0.3, ' ms', 0.25)),
  row('plan for 10,000 endpoints', '1.4 ms', below(1, ' ms', 1.4)),
  row('peak RSS', '169 MiB'),
];

describe('benchmark report', () => {
  const dirs: { cleanup(): void }[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => d.cleanup()));
  const root = () => {
    const dir = tempDir();
    dirs.push(dir);
    mkdirSync(join(dir.path, 'docs'));
    writeFileSync(join(dir.path, 'docs', 'BENCHMARKS.md'), '# Benchmarks\n\nTracked figures.\n');
    return dir.path;
  };

  it('prints each figure beside its target with MET or MISSED, and names what was missed', () => {
    const text = formatForTerminal('Gateway overhead', ROWS);
    const lines = text.split('\n');
    expect(lines.find((l) => l.startsWith('added latency p50'))).toMatch(/0\.25 ms\s+≤ 0\.3 ms\s+MET$/);
    expect(lines.find((l) => l.startsWith('plan for 10,000 endpoints'))).toMatch(/1\.4 ms\s+< 1 ms\s+MISSED$/);
    expect(lines.find((l) => l.startsWith('peak RSS'))).toMatch(/169 MiB$/);
    expect(text).toContain('1 of 2 targets MISSED: plan for 10,000 endpoints.');
  });

  it('writes the untracked results file and leaves docs/BENCHMARKS.md alone unless asked', () => {
    const dir = root();
    const out: string[] = [];
    publish({ root: dir, argv: [], title: 'Gateway overhead', resultHeader: 'result', rows: ROWS, detail: 'Detail.', out: (t) => out.push(t) });
    expect(readFileSync(join(dir, 'docs', 'BENCHMARKS.md'), 'utf8')).toBe('# Benchmarks\n\nTracked figures.\n');
    const results = readFileSync(join(dir, RESULTS_FILE), 'utf8');
    expect(results).toContain('| plan for 10,000 endpoints | 1.4 ms | < 1 ms | MISSED |');
    expect(out.join('')).toContain('--write-docs');

    publish({ root: dir, argv: ['--write-docs'], title: 'Gateway overhead', resultHeader: 'result', rows: ROWS, detail: 'Detail.', out: () => undefined });
    expect(readFileSync(join(dir, 'docs', 'BENCHMARKS.md'), 'utf8')).toContain('| added latency p50 | 0.25 ms | ≤ 0.3 ms | MET |');
  });

  it('keeps the results file out of git', () => {
    const ignored = spawnSync('git', ['check-ignore', RESULTS_FILE], { encoding: 'utf8' });
    expect(ignored.stdout.trim()).toBe(RESULTS_FILE);
    expect(existsSync('.gitignore')).toBe(true);
  });

  it('refuses an unknown flag before measuring anything', () => {
    const result = spawnSync(process.execPath, ['scripts/run-bench.mjs', 'gateway', '--write-doc'], { encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--write-docs');
  });
});
