import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempCore, type TempCore } from '../test-support/temp-core';
import { createCore, FileSecretStore, ownerOnlyFileCodec } from '../core';

const CLI = join(process.cwd(), 'node_modules', '.cache', 'verdict-test', 'keys-cli.mjs');

function run(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, VERDICT_LOG_LEVEL: 'error', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The data directory's core opened again after the commands ran, to read what they logged. */
const tempCoreAt = (dataDir: string) =>
  createCore({
    dataDir,
    secrets: new FileSecretStore(join(dataDir, 'secrets.json'), ownerOnlyFileCodec),
    host: 'browser',
    version: 'test',
    sandbox: {},
    discovery: false,
    requestLog: 'read',
  });

describe('npm run serve -- keys', () => {
  let data: TempCore;
  let revokedId = '';
  beforeAll(async () => {
    await build({
      entryPoints: ['electron/server/cli.ts'],
      outfile: CLI,
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'esm',
      packages: 'external',
      logLevel: 'warning',
    });
    data = await tempCore({ sandbox: {} });
    await data.core.apiKeys.create('nightly job with a long name', 'standard', { credit_limit: 5, rate_limit_rpm: 60 });
    revokedId = (await data.core.apiKeys.create('old', 'management', { credit_limit: null, rate_limit_rpm: null })).info.id;
    await data.core.apiKeys.revoke(revokedId);
    await data.core.close();
  }, 60_000);
  afterAll(async () => data.cleanup().catch(() => undefined));

  it('refuses a data directory that holds no Verdict data instead of creating one', async () => {
    const typo = join(data.dataDir, 'no-such-dir');
    const result = await run(['keys', 'list', '--data-dir', typo]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`No Verdict data in ${typo}`);
    expect(existsSync(typo)).toBe(false);
  });

  it('names --data-dir in the keys usage', async () => {
    const result = await run(['--help']);
    expect(result.stdout).toMatch(/keys list \[--data-dir DIR\]/);
    expect(result.stdout).toMatch(/keys revoke ID \[--data-dir DIR\]/);
  });

  it('lists keys under a header, in aligned columns', async () => {
    const result = await run(['keys', 'list', '--data-dir', data.dataDir]);
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+KIND\s+STATE\s+SPENT\s+RATE LIMIT\s+NAME$/);
    expect(lines).toHaveLength(3);
    for (const header of ['KIND', 'STATE', 'SPENT', 'RATE LIMIT', 'NAME']) {
      const at = lines[0]!.indexOf(header);
      // Every row's cell starts where its header does.
      for (const line of lines.slice(1)) {
        expect(line[at - 1]).toBe(' ');
        expect(line[at]).not.toBe(' ');
      }
    }
    expect(result.stdout).toContain('$0 of $5');
    expect(result.stdout).toContain('60/min');
  });

  it('says a revoked key was already revoked rather than revoking it again', async () => {
    const result = await run(['keys', 'revoke', revokedId, '--data-dir', data.dataDir]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('was already revoked');
    expect(result.stdout).not.toMatch(/^Revoked/);
  });

  it('creates a key, changes its limits and revokes it, each logged as the command line with the limits before and after, never the secret', async () => {
    const created = await run(['keys', 'create', '--name', 'audited', '--credit-limit', '3', '--data-dir', data.dataDir]);
    expect(created.code, created.stderr).toBe(0);
    const secret = created.stdout.trim().split('\n').at(-1)!;
    const id = /^vd-([0-9a-f]{12})-/.exec(secret)![1]!;
    const limits = await run(['keys', 'limits', id, '--credit-limit', 'none', '--rate-limit', '30', '--data-dir', data.dataDir]);
    expect(limits.code, limits.stderr).toBe(0);
    expect(limits.stdout).toContain('credit none, rate 30 requests/minute');
    expect((await run(['keys', 'revoke', id, '--data-dir', data.dataDir])).code).toBe(0);
    const unknown = await run(['keys', 'limits', 'ffffffffffff', '--rate-limit', '5', '--data-dir', data.dataDir]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no API key with id "ffffffffffff"');

    const reopened = await tempCoreAt(data.dataDir);
    try {
      const { entries } = await reopened.audit.list({ offset: 0, limit: 10, target_kind: 'key' });
      const mine = entries.filter((e) => e.target.id === id);
      expect(mine.map((e) => [e.actor, e.action])).toEqual([
        [{ kind: 'command_line' }, 'key.revoke'],
        [{ kind: 'command_line' }, 'key.update_limits'],
        [{ kind: 'command_line' }, 'key.create'],
      ]);
      expect(mine[1]!.details).toEqual({ before: { credit_limit: 3, rate_limit_rpm: null }, after: { credit_limit: null, rate_limit_rpm: 30 } });
      expect(JSON.stringify(entries)).not.toContain(secret.slice(16));
    } finally {
      await reopened.close();
    }
    // Four command-line processes, each opening the data directory's core: seconds apiece on a busy machine.
  }, 90_000);
});

describe("npm run serve: a team's settings are checked before anything starts, each named", () => {
  it.each([
    [
      ['--database-pool', 'many', '--database', 'postgres://db/verdict'],
      {},
      '--database-pool (or VERDICT_DATABASE_POOL) must be a whole number of connections from 2 to 200',
    ],
    [['--database-pool', '4'], {}, '--database-pool and --database-listen-url set how the database is reached: name the database too'],
    [
      ['--database', 'postgres://db/verdict', '--database-listen-url', 'mysql://db'],
      {},
      '--database-listen-url (or VERDICT_DATABASE_LISTEN_URL) must be a postgres:// URL',
    ],
    [
      ['--database', 'postgres://db/verdict', '--redis', 'redis://r', '--redis-timeout', '0'],
      {},
      '--redis-timeout (or VERDICT_REDIS_TIMEOUT_MS) must be a whole number of milliseconds',
    ],
    [['--body-memory', '1000'], {}, '--body-memory (or VERDICT_BODY_MEMORY) must be a whole number of bytes, at least 1048576 (1 MiB), not "1000"'],
    [[], { VERDICT_BODY_MEMORY: 'lots' }, '--body-memory (or VERDICT_BODY_MEMORY) must be a whole number of bytes, at least 1048576 (1 MiB), not "lots"'],
    [[], { OTEL_EXPORTER_OTLP_ENDPOINT: 'grpc://collector:4317' }, 'OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL (OTLP over HTTP), not grpc:'],
  ])('%j %j: refused', async (args, env, message) => {
    const result = await run(args, env);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(message);
  });
});
