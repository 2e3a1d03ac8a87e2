import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createCore, FileSecretStore, ownerOnlyFileCodec } from '../core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tempCore, tempDir } from '../test-support/temp-core';
import { runStoreCommand } from './store-command';

/** Runs the command, with what it writes to stdout and stderr. */
async function store(args: string[], values: { from?: string; to?: string }) {
  let out = '';
  let err = '';
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((out += String(chunk)), true));
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((err += String(chunk)), true));
  try {
    return { code: await runStoreCommand(args, values), out, err };
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
  }
}

describe('npm run serve -- store copy', () => {
  const dirs: { cleanup(): void }[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => d.cleanup()));

  it('says what is missing or wrong in its arguments, and touches nothing', async () => {
    const empty = tempDir();
    dirs.push(empty);
    expect(await store(['copy'], { from: empty.path })).toMatchObject({ code: 1, err: expect.stringMatching(/^store copy needs --from and --to/) });
    expect(await store(['move'], { from: 'a', to: 'b' })).toMatchObject({ code: 1, err: expect.stringMatching(/^Unknown store command "move"/) });
    expect(await store(['copy'], { from: 'mysql://u:hunter2@db/x', to: empty.path })).toMatchObject({
      code: 1,
      err: 'store copy failed: --from must be a data directory or a postgres:// URL, not "mysql://u:***@db/x"\n',
    });
    const target = join(empty.path, 'new');
    expect(await store(['copy'], { from: empty.path, to: target })).toMatchObject({ code: 1, err: expect.stringContaining('no Verdict data there') });
    // Refused before the target was opened: no directory was made for it.
    expect(existsSync(target)).toBe(false);
  });

  it('copies a data directory into a new one and lists what it copied; a second copy is refused with the reasons', async () => {
    const env = await tempCore();
    const target = tempDir();
    dirs.push(target);
    try {
      await env.core.apiKeys.create('ci', 'standard');
      await env.core.questionSets.save({ name: 'Triage', request: { model: 'x/y', state: 's', questions: { late: { type: 'noul', instructions: 'Late?' } } } });
      const first = await store(['copy'], { from: env.dataDir, to: join(target.path, 'laptop') });
      expect(first.code).toBe(0);
      expect(first.out).toMatch(/^Copied from SQLite file .* to SQLite file .*laptop\/verdict\.sqlite:\n\s+1 API keys.*\n(.*\n)*\s+1 question sets\n/);
      const second = await store(['copy'], { from: env.dataDir, to: join(target.path, 'laptop') });
      expect(second.code).toBe(1);
      expect(second.err).toMatch(/^Nothing was copied: 2 problems:\n {2}- the target already has an API key with the same id/);
    } finally {
      await env.cleanup();
    }
  });

  it("copied into a directory that holds a request log, the keys' spend is counted once, not again from the log", async () => {
    const env = await tempCore();
    const target = tempDir();
    dirs.push(target);
    try {
      const key = await env.core.apiKeys.create('team', 'standard');
      await env.core.spend.charge(key.info.id, 0.5, 'r1');
      // The log a team instance kept in the directory while its data was on a shared database.
      mkdirSync(join(target.path, 'requests'));
      const line = { id: 'r1', created_at: '2026-11-27T10:00:00.000Z', key_id: key.info.id, session_id: null, user: null, model: 'm', provider: 'p' };
      const rest = { endpoint_id: null, status: 200, latency_ms: 1, input_tokens: 1, output_tokens: 1, cost: 0.5, methods: null, question_count: 1 };
      writeFileSync(join(target.path, 'requests', '2026-11-27.ndjson'), `${JSON.stringify({ ...line, ...rest })}\n`);
      const copied = await store(['copy'], { from: env.dataDir, to: target.path });
      expect(copied.code).toBe(0);
      expect(copied.out).toMatch(/Not copied:\n\s+attempts, metric_minutes: endpoint figures are measurements of the place they were made/);
      // The server started on the directory afterwards.
      const served = await createCore({
        dataDir: target.path,
        secrets: new FileSecretStore(join(target.path, 'secrets.json'), ownerOnlyFileCodec),
        host: 'browser',
        version: 'test',
        discovery: false,
      });
      try {
        expect((await served.apiKeys.list()).map((k) => k.spent)).toEqual([0.5]);
      } finally {
        await served.close();
      }
    } finally {
      await env.cleanup();
    }
  });
});
