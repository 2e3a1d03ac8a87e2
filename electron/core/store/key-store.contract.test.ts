import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { bundled, postgresForFile, storeBackends } from '../../test-support/store-backends';
import { until } from '../../test-support/until';
import type { ApiKeyRecord, KeyStorage } from './ports';
import { PgDatabase } from './postgres/database';
import { PgKeyStore } from './postgres/key-store';
import { SqliteKeyStore } from './sqlite/key-store';

/** The keys domain's storage contract, on both backends (test-support/store-backends.ts). */
const backends = storeBackends<KeyStorage>({ sqlite: (store) => new SqliteKeyStore(store), postgres: (db) => PgKeyStore.open(db) });

const key = (id: string, created_at: string, extra: Partial<ApiKeyRecord> = {}): ApiKeyRecord => ({
  id,
  name: `key ${id}`,
  kind: 'standard',
  hash: Buffer.from(id.padEnd(32, '!')),
  label: `vd-${id}-…`,
  created_at,
  revoked_at: null,
  last_used_at: null,
  credit_limit: null,
  rate_limit_rpm: null,
  spent: 0,
  ...extra,
});

describe.each(backends)('KeyStorage on %s', (_name, backend) => {
  it('keeps what it was given, exactly, oldest first, and another connection reads the same', async () => {
    const { a, b, close } = await backend.open();
    try {
      const later = key('bbbbbbbbbbbb', '2026-02-01T00:00:00.000Z', { kind: 'management', credit_limit: 2.5, rate_limit_rpm: 30 });
      const earlier = key('aaaaaaaaaaaa', '2026-01-01T00:00:00.000Z');
      await a.add(later);
      await a.add(earlier);
      expect(await a.all()).toEqual([earlier, later]);
      expect(await b.all()).toEqual([earlier, later]);
      expect((await b.all())[0]!.hash).toBeInstanceOf(Buffer);
      await expect(a.add(key('aaaaaaaaaaaa', '2026-03-01T00:00:00.000Z'))).rejects.toThrow();
      expect(await b.all()).toHaveLength(2);
    } finally {
      await close();
    }
  });

  it('the first key is stored once: two connections adding a first key at the same moment store one, and none is added after', async () => {
    const { a, b, close } = await backend.open();
    try {
      for (let round = 0; round < 5; round += 1) {
        const [x, y] = await Promise.all([
          a.addFirst(key(`${round}aaaaaaaaaaa`, '2026-01-01T00:00:00.000Z')),
          b.addFirst(key(`${round}bbbbbbbbbbb`, '2026-01-01T00:00:00.000Z')),
        ]);
        expect([x, y].filter(Boolean)).toHaveLength(round === 0 ? 1 : 0);
      }
      expect(await b.all()).toHaveLength(1);
    } finally {
      await close();
    }
  });

  it('reads one key as stored now and replaces its limits; the change token moves for the other connection', async () => {
    const { a, b, close } = await backend.open();
    try {
      const stored = key('aaaaaaaaaaaa', '2026-01-01T00:00:00.000Z', { credit_limit: 5, rate_limit_rpm: 60 });
      await a.add(stored);
      expect(await b.get('aaaaaaaaaaaa')).toEqual(stored);
      expect(await b.get('cccccccccccc')).toBeUndefined();
      const start = b.changeToken();
      const after = await a.setLimits('aaaaaaaaaaaa', { credit_limit: null, rate_limit_rpm: 10 });
      expect(after).toEqual({ ...stored, credit_limit: null, rate_limit_rpm: 10 });
      expect(await b.get('aaaaaaaaaaaa')).toEqual(after);
      await until(
        () => b.changeToken(),
        (t) => t !== start,
      );
      expect(await a.setLimits('cccccccccccc', { credit_limit: 1, rate_limit_rpm: null })).toBeUndefined();
    } finally {
      await close();
    }
  });

  it('revokes once: the first time is kept, an unknown key is undefined', async () => {
    const { a, b, close } = await backend.open();
    try {
      await a.add(key('aaaaaaaaaaaa', '2026-01-01T00:00:00.000Z'));
      const first = await a.revoke('aaaaaaaaaaaa', '2026-01-02T00:00:00.000Z');
      expect(first?.revoked_at).toBe('2026-01-02T00:00:00.000Z');
      const again = await b.revoke('aaaaaaaaaaaa', '2026-01-03T00:00:00.000Z');
      expect(again?.revoked_at).toBe('2026-01-02T00:00:00.000Z');
      expect(await a.revoke('000000000000', '2026-01-03T00:00:00.000Z')).toBeUndefined();
    } finally {
      await close();
    }
  });

  it('a charge is durable once it resolves, and charges from two connections at once all count', async () => {
    const { a, b, close } = await backend.open();
    try {
      await a.add(key('aaaaaaaaaaaa', '2026-01-01T00:00:00.000Z'));
      await a.add(key('bbbbbbbbbbbb', '2026-01-01T00:00:01.000Z'));
      await a.charge('aaaaaaaaaaaa', 0.25);
      expect((await b.all()).map((k) => k.spent)).toEqual([0.25, 0]);
      // 200 charges of an eighth (exact in binary) from each connection, interleaved.
      const charges: Promise<void>[] = [];
      for (let i = 0; i < 200; i += 1) {
        charges.push(a.charge('aaaaaaaaaaaa', 0.125), b.charge('aaaaaaaaaaaa', 0.125), b.charge('bbbbbbbbbbbb', 0.5));
        if (i % 20 === 0) await new Promise((r) => setImmediate(r));
      }
      await Promise.all(charges);
      expect((await a.all()).map((k) => k.spent)).toEqual([0.25 + 400 * 0.125, 200 * 0.5]);
      if (backend.name === 'Postgres') {
        // The ledger: the same request's charge written again (a retried batch) counts once; another request's counts.
        await a.charge('bbbbbbbbbbbb', 1, 'req-1');
        await b.charge('bbbbbbbbbbbb', 1, 'req-1');
        await b.charge('bbbbbbbbbbbb', 0.5, 'req-2');
        expect((await a.all()).map((k) => k.spent)).toEqual([0.25 + 400 * 0.125, 200 * 0.5 + 1.5]);
      }
    } finally {
      await close();
    }
  });

  it("a charge counts in its UTC day's spend, read from any connection, the ledger not yet folded included and after the fold the same", async () => {
    const { a, b, close } = await backend.open();
    try {
      await a.add(key('aaaaaaaaaaaa', '2026-01-01T00:00:00.000Z'));
      await a.add(key('bbbbbbbbbbbb', '2026-01-01T00:00:01.000Z'));
      const today = new Date().toISOString().slice(0, 10);
      await a.charge('aaaaaaaaaaaa', 0.25, 'r1');
      await b.charge('aaaaaaaaaaaa', 0.125, 'r2');
      await b.charge('bbbbbbbbbbbb', 1, 'r3');
      expect(await b.spendByDay('aaaaaaaaaaaa', '2000-01-01')).toEqual(new Map([[today, 0.375]]));
      expect(await a.spendByDay('bbbbbbbbbbbb', today)).toEqual(new Map([[today, 1]]));
      // A day after today: nothing from before it.
      expect(await a.spendByDay('aaaaaaaaaaaa', '9999-12-31')).toEqual(new Map());
      if (a instanceof PgKeyStore) {
        await a.foldLedger(Date.now() + 1000);
        await a.charge('aaaaaaaaaaaa', 0.5, 'r4');
        expect(await b.spendByDay('aaaaaaaaaaaa', today)).toEqual(new Map([[today, 0.875]]));
        expect((await b.all()).map((k) => k.spent)).toEqual([0.875, 1]);
      }
    } finally {
      await close();
    }
  });

  it('request starts are kept for the sliding minute, to the fraction of a millisecond the clock gives, and forgotten up to a time', async () => {
    const { a, b, close } = await backend.open();
    try {
      await a.add(key('aaaaaaaaaaaa', '2026-01-01T00:00:00.000Z', { rate_limit_rpm: 2 }));
      const t = Date.parse('2026-01-01T00:00:00Z');
      for (const at of [t + 3.25, t + 1.5, t + 2.75]) a.noteRequest({ keyId: 'aaaaaaaaaaaa', at });
      await a.flush();
      expect(await b.requestsSince(t)).toEqual([1.5, 2.75, 3.25].map((d) => ({ keyId: 'aaaaaaaaaaaa', at: t + d })));
      expect(await b.requestsSince(t + 2.75)).toEqual([{ keyId: 'aaaaaaaaaaaa', at: t + 3.25 }]);
      a.forgetRequests(t + 2.75);
      await a.flush();
      expect(await b.requestsSince(0)).toEqual([{ keyId: 'aaaaaaaaaaaa', at: t + 3.25 }]);
    } finally {
      await close();
    }
  });

  it('a usage stamp is written behind, and is there after a flush', async () => {
    const { a, b, close } = await backend.open();
    try {
      await a.add(key('aaaaaaaaaaaa', '2026-01-01T00:00:00.000Z'));
      a.stampUsed('aaaaaaaaaaaa', '2026-01-05T00:00:00.000Z');
      await a.flush();
      expect((await b.all())[0]!.last_used_at).toBe('2026-01-05T00:00:00.000Z');
    } finally {
      await close();
    }
  });

  it("the change token moves when another connection creates or revokes a key, and after this one's own", async () => {
    const { a, b, close } = await backend.open();
    try {
      const start = a.changeToken();
      expect(a.changeToken()).toBe(start);
      await b.add(key('aaaaaaaaaaaa', '2026-01-01T00:00:00.000Z'));
      // Postgres delivers the notice after the commit, over the listening connection.
      await until(
        () => a.changeToken(),
        (token) => token !== start,
      );
      const afterAdd = a.changeToken();
      await b.revoke('aaaaaaaaaaaa', '2026-01-02T00:00:00.000Z');
      await until(
        () => a.changeToken(),
        (token) => token !== afterAdd,
      );
      const own = a.changeToken();
      await a.add(key('bbbbbbbbbbbb', '2026-01-01T00:00:00.000Z'));
      expect(a.changeToken()).not.toBe(own);
    } finally {
      await close();
    }
  });
});

describe('KeyStorage on Postgres, from two processes', () => {
  const postgres = postgresForFile();

  it('charges from two processes at once all count, exactly', async () => {
    const url = await postgres.url('two_processes');
    const db = await PgDatabase.open(url);
    try {
      const keys = await PgKeyStore.open(db);
      await keys.add(key('aaaaaaaaaaaa', '2026-01-01T00:00:00.000Z'));
      const charger = await bundled(join(import.meta.dirname, '..', '..', 'test-support', 'charge-process.ts'));
      try {
        const run = () => charger.run([url, 'aaaaaaaaaaaa', '300', '0.125']);
        expect(await Promise.all([run(), run()])).toEqual(['done\n', 'done\n']);
      } finally {
        charger.remove();
      }
      // 600 charges of an eighth (exact in binary).
      expect((await keys.all())[0]!.spent).toBe(75);
    } finally {
      await db.close();
    }
  }, 60_000);
});
