import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCore, type Core } from '../core/create-core';
import { FileSecretStore, ownerOnlyFileCodec, type SecretCodec } from '../core/keys/secret-store';
import type { Clock } from '../core/clock';

/** A fresh data directory under the OS temp folder, removed by `cleanup`. */
export function tempDir(prefix = 'verdict-test-'): { path: string; cleanup(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true }) };
}

/** A real core on a real SQLite file and secrets file in a temporary directory. */
export function tempCore(options: { codec?: SecretCodec; clock?: Clock } = {}): { core: Core; dataDir: string; cleanup(): void } {
  const dir = tempDir();
  const core = createCore({
    dataDir: dir.path,
    secrets: new FileSecretStore(join(dir.path, 'secrets.json'), options.codec ?? ownerOnlyFileCodec),
    host: 'browser',
    version: '9.9.9-test',
    ...(options.clock ? { clock: options.clock } : {}),
  });
  return {
    core,
    dataDir: dir.path,
    cleanup: () => {
      core.close();
      dir.cleanup();
    },
  };
}
