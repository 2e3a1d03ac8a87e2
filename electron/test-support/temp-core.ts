import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCore, FileSecretStore, ownerOnlyFileCodec, type Core, type CoreOptions, type SecretCodec } from '../core';

/** A fresh data directory under the OS temp folder, removed by `cleanup`. */
export function tempDir(prefix = 'verdict-test-'): { path: string; cleanup(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true }) };
}

export interface TempCore {
  core: Core;
  dataDir: string;
  cleanup(): Promise<void>;
}

/** A real core on a real SQLite file and secrets file in a temporary directory. */
export async function tempCore(options: { codec?: SecretCodec } & Partial<Omit<CoreOptions, 'dataDir' | 'secrets'>> = {}): Promise<TempCore> {
  const dir = tempDir();
  const { codec, ...rest } = options;
  const core = await createCore({
    dataDir: dir.path,
    secrets: new FileSecretStore(join(dir.path, 'secrets.json'), codec ?? ownerOnlyFileCodec),
    host: 'browser',
    version: '9.9.9-test',
    discovery: false,
    ...rest,
  });
  return {
    core,
    dataDir: dir.path,
    cleanup: async () => {
      await core.close();
      dir.cleanup();
    },
  };
}

/** The context an in-process test calls a changing operation with, as the desktop window's IPC does. */
export const AS_DESKTOP = { actor: { kind: 'desktop' } } as const;
