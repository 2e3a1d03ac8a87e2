import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../test-support/temp-core';
import { FileSecretStore, ownerOnlyFileCodec, type SecretCodec } from './secret-store';

describe('FileSecretStore', () => {
  let dir: ReturnType<typeof tempDir>;
  afterEach(() => dir.cleanup());

  it('keeps secrets in a file only its owner can read', async () => {
    dir = tempDir();
    const path = join(dir.path, 'secrets.json');
    const store = new FileSecretStore(path, ownerOnlyFileCodec);
    await store.set('provider:openai', 'sk-test-123456');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(await store.get('provider:openai')).toBe('sk-test-123456');
    expect(await store.has('provider:openai')).toBe(true);
    await store.delete('provider:openai');
    expect(await store.has('provider:openai')).toBe(false);
  });

  it('applies concurrent writes one after another without losing any', async () => {
    dir = tempDir();
    const store = new FileSecretStore(join(dir.path, 'secrets.json'), ownerOnlyFileCodec);
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.set(`s${i}`, `value-${i}`)));
    for (let i = 0; i < 20; i += 1) expect(await store.get(`s${i}`)).toBe(`value-${i}`);
  });

  it('refuses to store when the codec cannot protect secrets, and writes nothing', async () => {
    dir = tempDir();
    const path = join(dir.path, 'secrets.json');
    const unavailable: SecretCodec = {
      status: () => ({ available: false, description: 'no keyring is running' }),
      encode: () => {
        throw new Error('must not be called');
      },
      decode: (s) => s,
    };
    const store = new FileSecretStore(path, unavailable);
    await expect(store.set('provider:openai', 'sk-test-123456')).rejects.toThrow(/cannot be stored: no keyring is running/);
    expect(() => statSync(path)).toThrow();
  });

  it('leaves a damaged file untouched and says which file', async () => {
    dir = tempDir();
    const path = join(dir.path, 'secrets.json');
    writeFileSync(path, '{"version":1,"secrets":{"a":', { mode: 0o600 });
    const store = new FileSecretStore(path, ownerOnlyFileCodec);
    await expect(store.set('provider:openai', 'sk-test-123456')).rejects.toThrow(new RegExp(`${path}.*not valid JSON`));
    expect(readFileSync(path, 'utf8')).toBe('{"version":1,"secrets":{"a":');
  });

  it('stores what the codec encodes, not the plain value', async () => {
    dir = tempDir();
    const path = join(dir.path, 'secrets.json');
    const reversing: SecretCodec = {
      status: () => ({ available: true, description: 'test' }),
      encode: (s) => [...s].reverse().join(''),
      decode: (s) => [...s].reverse().join(''),
    };
    const store = new FileSecretStore(path, reversing);
    await store.set('k', 'abc-secret');
    expect(readFileSync(path, 'utf8')).not.toContain('abc-secret');
    expect(await store.get('k')).toBe('abc-secret');
  });
});
