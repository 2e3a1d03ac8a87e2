import { sqliteOf } from '../../test-support/sqlite-of';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempCore } from '../../test-support/temp-core';
import { DATABASE_FILE } from '../create-core';
import { Store } from '../store/sqlite/database';
import { SqliteKeyStore } from '../store/sqlite/key-store';
import { ApiKeys } from './api-keys';
import type { Clock } from '../clock';
import type { KeyStorage } from '../store/ports';
import type { Reservation } from './admission/admission';
import { LocalAdmission } from './admission/local';
import { SpendLedger } from './spend-ledger';

/** A process's keys as the composition root makes them on a store: directory, ledger and local admission. */
async function local(store: KeyStorage, clock: Clock) {
  const keys = await ApiKeys.open(store, clock);
  const ledger = new SpendLedger(store, clock, (id) => keys.row(id)?.spent);
  return { keys, ledger, admission: await LocalAdmission.open(keys, ledger, store, clock) };
}

describe('API keys', () => {
  let env: Awaited<ReturnType<typeof tempCore>>;
  afterEach(() => env.cleanup());

  it('verifies a created key, and only that key', async () => {
    env = await tempCore();
    const { info, key } = await env.core.apiKeys.create('ci', 'standard');
    expect(await env.core.apiKeys.verify(key)).toEqual({ id: info.id, kind: 'standard', name: 'ci' });
    const tampered = key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A');
    expect(await env.core.apiKeys.verify(tampered)).toBeUndefined();
    expect(await env.core.apiKeys.verify('not-a-key')).toBeUndefined();
    expect(await env.core.apiKeys.verify('')).toBeUndefined();
  });

  it('a key verified before stops working once it is revoked: here at once, by another process within a look at the file', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    env = await tempCore({ clock: { now: () => now } });
    const a = await env.core.apiKeys.create('a', 'standard');
    const b = await env.core.apiKeys.create('b', 'standard');
    // Verified (and remembered) first.
    expect((await env.core.apiKeys.verify(a.key))?.id).toBe(a.info.id);
    expect((await env.core.apiKeys.verify(b.key))?.id).toBe(b.info.id);
    await env.core.apiKeys.revoke(a.info.id);
    expect(await env.core.apiKeys.verify(a.key)).toBeUndefined();
    // Another process (the command line) revokes b in the same file, over a connection of its own.
    const otherStore = Store.open(sqliteOf(env.core).path);
    const other = await ApiKeys.open(new SqliteKeyStore(otherStore), { now: () => now });
    now += 1;
    await other.revoke(b.info.id);
    otherStore.close();
    // The file is looked at again once the last look's time has passed (a look is shared by the requests within it).
    await new Promise((resolve) => setTimeout(resolve, Store.SHARED_LOOK_MS + 1));
    expect(await env.core.apiKeys.verify(b.key)).toBeUndefined();
  });

  it('a key another process has just created works at once, without waiting for the next look', async () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    env = await tempCore({ clock: { now: () => now } });
    const first = await env.core.apiKeys.create('first', 'standard');
    expect((await env.core.apiKeys.verify(first.key))?.id).toBe(first.info.id);
    // The command line creates a key in the same file; the clock has not moved on.
    const otherStore = Store.open(sqliteOf(env.core).path);
    const created = await (await ApiKeys.open(new SqliteKeyStore(otherStore), { now: () => now })).create('from the command line', 'standard');
    otherStore.close();
    expect((await env.core.apiKeys.verify(created.key))?.id).toBe(created.info.id);
  });

  it('stores only a hash: the key never appears in the database file', async () => {
    env = await tempCore();
    const { key } = await env.core.apiKeys.create('ci', 'management');
    // Everything after `vd-<id>-`: the secret is base64url, which has '-' in it too (split('-')[2] was '' when it began with one).
    const secretPart = key.split('-').slice(2).join('-');
    expect(secretPart).toHaveLength(43);
    const bytes = readFileSync(join(env.dataDir, DATABASE_FILE)).toString('latin1');
    expect(bytes).not.toContain(secretPart);
    expect(JSON.stringify(await env.core.apiKeys.list())).not.toContain(secretPart);
  });

  it('a revoked key no longer verifies, and revoking twice keeps the first time', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    env = await tempCore({ clock: { now: () => now } });
    const { info, key } = await env.core.apiKeys.create('temp', 'standard');
    const first = await env.core.apiKeys.revoke(info.id);
    now += 60_000;
    const second = await env.core.apiKeys.revoke(info.id);
    expect(second.revoked_at).toBe(first.revoked_at);
    expect(await env.core.apiKeys.verify(key)).toBeUndefined();
    await expect(env.core.apiKeys.revoke('000000000000')).rejects.toThrow(/No API key/);
  });

  it('records when a key was last used, at most once a minute', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    env = await tempCore({ clock: { now: () => now } });
    const { info } = await env.core.apiKeys.create('job', 'standard');
    env.core.apiKeys.touch(info.id);
    sqliteOf(env.core).flush();
    const firstUse = (await env.core.apiKeys.list())[0]!.last_used_at;
    expect(firstUse).toBe('2026-01-01T00:00:00.000Z');
    now += 30_000;
    env.core.apiKeys.touch(info.id);
    sqliteOf(env.core).flush();
    expect((await env.core.apiKeys.list())[0]!.last_used_at).toBe(firstUse);
    now += 61_000;
    env.core.apiKeys.touch(info.id);
    sqliteOf(env.core).flush();
    expect((await env.core.apiKeys.list())[0]!.last_used_at).toBe('2026-01-01T00:01:31.000Z');
  });

  it('API requests logged in SQLite by an earlier version: old ones are removed, what they cost still counts against the key', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    env = await tempCore({ clock: { now: () => now } });
    const { info } = await env.core.apiKeys.create('job', 'standard', { credit_limit: 1, rate_limit_rpm: null });
    // Their cost was carried into api_keys.spent when the schema moved spend there.
    sqliteOf(env.core).run('UPDATE api_keys SET spent = 0.75 WHERE id = ?', [info.id]);
    const log = (at: number, cost: number) =>
      sqliteOf(env.core).run(
        "INSERT INTO decisions (id, created_at, origin, key_id, model, status, latency_ms, question_count, cost) VALUES (?, ?, 'api', ?, 'a/b', 200, 1, 1, ?)",
        [`d${at}`, at, info.id, cost],
      );
    log(now, 0.25);
    now += 40 * 86_400_000;
    log(now, 0.5);
    expect(await env.core.runStore.forgetApiRecordsBefore(now - 30 * 86_400_000)).toBe(1);
    expect(sqliteOf(env.core).all('SELECT id FROM decisions')).toHaveLength(1);
    const { keys, ledger, admission } = await local(new SqliteKeyStore(sqliteOf(env.core)), { now: () => now });
    expect((await keys.list())[0]!.spent).toBe(0.75);
    await ledger.charge(info.id, 0.3);
    expect(() => admission.onDecision(info.id)).toThrow(/has spent \$1\.05 of its \$1 credit/);
  });

  it('a charge is in the file once it resolves, and counts at once for the next admission', async () => {
    env = await tempCore();
    const { info } = await env.core.apiKeys.create('job', 'standard', { credit_limit: 1, rate_limit_rpm: null });
    const charged = env.core.spend.charge(info.id, 0.4);
    const reread = async () => (await (await ApiKeys.open(new SqliteKeyStore(sqliteOf(env.core)), env.core.clock)).list())[0]!.spent;
    expect(await reread()).toBe(0);
    expect(() => env.core.admission.admit(info.id, 'r', () => 0.61)).toThrow(/\$0\.6 of its \$1 credit free/);
    await charged;
    expect(await reread()).toBe(0.4);
  });

  it('reservations of requests in flight count against the limit until they are settled', async () => {
    env = await tempCore();
    const { info } = await env.core.apiKeys.create('job', 'standard', { credit_limit: 1, rate_limit_rpm: null });
    const { admission, spend } = env.core;
    const first = admission.admit(info.id, 'r1', () => 0.5) as Reservation;
    const second = admission.admit(info.id, 'r2', () => 0.5) as Reservation;
    expect(() => admission.admit(info.id, 'r3', () => 0.01)).toThrow(expect.objectContaining({ status: 402 }));
    // Settled below what was held: the difference is free again.
    admission.settle(info.id, first, 0.1);
    await spend.charge(info.id, 0.1);
    expect(admission.admit(info.id, 'r4', () => 0.4)).not.toBeNull();
    admission.settle(info.id, second, 0);
    expect((await env.core.apiKeys.list())[0]!.spent).toBe(0.1);
    // A key without a credit limit holds nothing.
    const free = await env.core.apiKeys.create('free', 'standard');
    expect(
      admission.admit(free.info.id, 'r5', () => {
        throw new Error('not worked out for a key without a limit');
      }),
    ).toBeNull();
  });

  it('a restart keeps the rate-limit window: requests of the last minute still count', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    env = await tempCore({ clock: { now: () => now } });
    const { info } = await env.core.apiKeys.create('job', 'standard', { credit_limit: null, rate_limit_rpm: 3 });
    for (let i = 0; i < 3; i += 1) {
      env.core.admission.onRequest(info.id, `r${i}`, false);
      now += 1000;
    }
    // Committed with the next group commit (before any answer leaves).
    await sqliteOf(env.core).commit('SELECT 1');
    const restarted = (await local(new SqliteKeyStore(sqliteOf(env.core)), { now: () => now })).admission;
    expect(() => restarted.onRequest(info.id)).toThrow(expect.objectContaining({ status: 429 }));
    now += 58_000;
    const later = (await local(new SqliteKeyStore(sqliteOf(env.core)), { now: () => now })).admission;
    expect(() => later.onRequest(info.id)).not.toThrow();
  });
});
