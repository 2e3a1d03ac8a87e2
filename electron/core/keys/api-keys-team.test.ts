import { describe, expect, it } from 'vitest';
import { postgresForFile } from '../../test-support/store-backends';
import { systemClock } from '../clock';
import { PgDatabase } from '../store/postgres/database';
import { PgKeyStore } from '../store/postgres/key-store';
import { ApiKeys } from './api-keys';

const postgres = postgresForFile();

describe("a team's keys on one Postgres", () => {
  it('a key created through one instance is accepted by another at once, before the change notice reaches it; an unknown id stays unknown', async () => {
    const url = await postgres.url('keys_at_once');
    const [a, b] = await Promise.all([PgDatabase.open(url), PgDatabase.open(url)]);
    try {
      const [here, there] = await Promise.all([ApiKeys.open(await PgKeyStore.open(a), systemClock), ApiKeys.open(await PgKeyStore.open(b), systemClock)]);
      const { info, key } = await here.create('made here', 'standard');
      // Asked on the other instance in the same turn: its listener has not heard of the key yet.
      expect(await there.verify(key)).toEqual({ id: info.id, kind: 'standard', name: 'made here' });
      expect(await there.verify(`vd-000000000000-${'x'.repeat(43)}`)).toBeUndefined();
      expect(await there.verify(key.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')))).toBeUndefined();
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it("folding the ledger into the keys' rows leaves every key's spend as it was, done by one connection at a time; a charge sent again before the fold counts once", async () => {
    const url = await postgres.url('ledger_fold');
    const [a, b] = await Promise.all([PgDatabase.open(url), PgDatabase.open(url)]);
    try {
      const [here, there] = [await PgKeyStore.open(a), await PgKeyStore.open(b)];
      const keys = await ApiKeys.open(here, systemClock);
      const { info } = await keys.create('folded', 'standard');
      await Promise.all([here.charge(info.id, 0.1, 'r1'), there.charge(info.id, 0.25, 'r2'), here.charge(info.id, 0.05, 'r3')]);
      await there.charge(info.id, 0.25, 'r2');
      const spentOf = async (store: PgKeyStore) => (await store.all()).find((k) => k.id === info.id)!.spent;
      expect(await spentOf(there)).toBeCloseTo(0.4, 12);
      const folded = await Promise.all([here.foldLedger(Date.now() + 1_000), there.foldLedger(Date.now() + 1_000)]);
      expect(folded.sort()).toEqual([0, 3]);
      expect(await spentOf(here)).toBeCloseTo(0.4, 12);
      expect(await spentOf(there)).toBeCloseTo(0.4, 12);
      expect(await a.query('SELECT * FROM spend_ledger')).toEqual([]);
      // Charges after the fold add to it.
      await there.charge(info.id, 0.1, 'r4');
      expect(await spentOf(here)).toBeCloseTo(0.5, 12);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
