import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempCore } from '../../test-support/temp-core';
import { DATABASE_FILE } from '../create-core';

describe('API keys', () => {
  let env: Awaited<ReturnType<typeof tempCore>>;
  afterEach(() => env.cleanup());

  it('verifies a created key, and only that key', async () => {
    env = await tempCore();
    const { info, key } = env.core.apiKeys.create('ci', 'standard');
    expect(env.core.apiKeys.verify(key)).toEqual({ id: info.id, kind: 'standard' });
    const tampered = key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A');
    expect(env.core.apiKeys.verify(tampered)).toBeUndefined();
    expect(env.core.apiKeys.verify('not-a-key')).toBeUndefined();
    expect(env.core.apiKeys.verify('')).toBeUndefined();
  });

  it('stores only a hash: the key never appears in the database file', async () => {
    env = await tempCore();
    const { key } = env.core.apiKeys.create('ci', 'management');
    const secretPart = key.split('-')[2]!;
    const bytes = readFileSync(join(env.dataDir, DATABASE_FILE)).toString('latin1');
    expect(bytes).not.toContain(secretPart);
    expect(JSON.stringify(env.core.apiKeys.list())).not.toContain(secretPart);
  });

  it('a revoked key no longer verifies, and revoking twice keeps the first time', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    env = await tempCore({ clock: { now: () => now } });
    const { info, key } = env.core.apiKeys.create('temp', 'standard');
    const first = env.core.apiKeys.revoke(info.id);
    now += 60_000;
    const second = env.core.apiKeys.revoke(info.id);
    expect(second.revoked_at).toBe(first.revoked_at);
    expect(env.core.apiKeys.verify(key)).toBeUndefined();
    expect(() => env.core.apiKeys.revoke('000000000000')).toThrow(/No API key/);
  });

  it('records when a key was last used, at most once a minute', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    env = await tempCore({ clock: { now: () => now } });
    const { info } = env.core.apiKeys.create('job', 'standard');
    env.core.apiKeys.touch(info.id);
    env.core.store.flush();
    const firstUse = env.core.apiKeys.list()[0]!.last_used_at;
    expect(firstUse).toBe('2026-01-01T00:00:00.000Z');
    now += 30_000;
    env.core.apiKeys.touch(info.id);
    env.core.store.flush();
    expect(env.core.apiKeys.list()[0]!.last_used_at).toBe(firstUse);
    now += 61_000;
    env.core.apiKeys.touch(info.id);
    env.core.store.flush();
    expect(env.core.apiKeys.list()[0]!.last_used_at).toBe('2026-01-01T00:01:31.000Z');
  });
});
