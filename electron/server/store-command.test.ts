import { existsSync } from 'node:fs';
import { join } from 'node:path';
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
      expect(first.out).toMatch(/^Copied from SQLite file .* to SQLite file .*laptop\/verdict\.sqlite:\n\s+1 API keys.*\n\s+1 question sets\n/);
      const second = await store(['copy'], { from: env.dataDir, to: join(target.path, 'laptop') });
      expect(second.code).toBe(1);
      expect(second.err).toMatch(/^Nothing was copied: 2 problems:\n {2}- the target already has an API key with the same id/);
    } finally {
      await env.cleanup();
    }
  });
});
