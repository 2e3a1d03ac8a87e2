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
});
