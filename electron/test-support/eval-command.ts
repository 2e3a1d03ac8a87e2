/**
 * The real `verdict eval` command for tests: bundled from its source as scripts/bundle.mjs bundles
 * it, run as a child process against a data directory, its exit code and both streams collected.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { build } from 'esbuild';

/** Bundles the command to a file of its own (test files run side by side, each builds its copy). */
export async function buildEvalCommand(name: string): Promise<string> {
  const outfile = join(process.cwd(), 'node_modules', '.cache', 'verdict-test', `${name}.mjs`);
  await build({
    entryPoints: ['electron/server/eval-cli.ts'],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    packages: 'external',
    logLevel: 'warning',
  });
  return outfile;
}

export interface CommandOutput {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCommand(file: string, args: readonly string[], env: Record<string, string | undefined> = {}): Promise<CommandOutput> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [file, ...args], { env: { ...process.env, VERDICT_LOG_LEVEL: 'error', GITHUB_STEP_SUMMARY: undefined, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The report's JSON Schema as docs publish it, compiled: a report that has a field it lacks, or lacks one it requires, fails. */
export function reportSchema() {
  const schema = JSON.parse(readFileSync(join(process.cwd(), 'docs', 'eval-report.schema.json'), 'utf8')) as {
    $defs: Record<string, { properties?: Record<string, unknown> }>;
  };
  const validate = new Ajv2020({ strict: true, allErrors: true }).compile(schema);
  return { schema, validate };
}
