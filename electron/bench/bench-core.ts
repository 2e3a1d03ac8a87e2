import { join } from 'node:path';
import { createCore, FileSecretStore, ownerOnlyFileCodec, type Core, type CoreOptions } from '../core';

/** A core for a bench: in `dataDir`, as the browser host, without discovery (the bench names its providers). */
export function benchCore(dataDir: string, extra: Partial<CoreOptions> = {}): Promise<Core> {
  return createCore({
    dataDir,
    secrets: new FileSecretStore(join(dataDir, 'secrets.json'), ownerOnlyFileCodec),
    host: 'browser',
    version: 'bench',
    discovery: false,
    ...extra,
  });
}
