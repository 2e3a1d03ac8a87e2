import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisMissing, startRedis, type TestRedis } from '../../test-support/redis';
import { tempDir } from '../../test-support/temp-core';
import { RedisAdmission } from '../store/redis/admission';
import { Store } from '../store/sqlite/database';
import { SqliteKeyStore } from '../store/sqlite/key-store';
import { systemClock } from '../clock';
import { ApiKeys } from './api-keys';
import { SharedKeyAdmission } from './admission/shared';

const missing = redisMissing();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A charge in the ledger that never reached Redis: the key's spend there is brought up to the ledger's before credit is checked again. */
describe.skipIf(missing !== null)(`a settle lost on the way to Redis${missing ? ` (skipped: ${missing})` : ''}`, () => {
  let redis: TestRedis & { close(): Promise<void> };
  beforeAll(async () => {
    redis = await startRedis();
  }, 20_000);
  afterAll(() => redis?.close());

  it('a request charged in the ledger by an instance that died before settling: once its hold lapses, the next admission counts the charge', async () => {
    const dir = tempDir();
    const path = join(dir.path, 'keys.sqlite');
    const [first, second] = [Store.open(path), Store.open(path)];
    // Holds live 300 ms here, as a killed instance's lapse after the longest request.
    const [dying, living] = await Promise.all([0, 1].map(() => RedisAdmission.open(redis.url, { commandTimeoutMs: 5_000, leaseMs: 300 })));
    try {
      const beforeKeys = await ApiKeys.open(new SqliteKeyStore(first), systemClock);
      const before = new SharedKeyAdmission(beforeKeys, new SqliteKeyStore(first), dying!);
      const { info } = await beforeKeys.create('tight', 'standard', { credit_limit: 1, rate_limit_rpm: null });
      const held = await before.admit(info.id, 'first', () => 0.5);
      expect(held).toMatchObject({ usd: 0.5 });
      // The charge reaches the ledger; the instance dies before its settle is sent.
      await new SqliteKeyStore(first).charge(info.id, 0.4);
      await dying!.close();
      const after = new SharedKeyAdmission(await ApiKeys.open(new SqliteKeyStore(second), systemClock), new SqliteKeyStore(second), living!);
      // Until the hold lapses its $0.50 is held: nothing past the limit either way.
      await expect(after.admit(info.id, 'second', () => 0.7)).rejects.toMatchObject({ status: 402 });
      await sleep(350);
      // $0.40 spent of $1 (Redis alone would have said $0): a request that may cost $0.70 does not fit, one of $0.60 does.
      await expect(after.admit(info.id, 'third', () => 0.7)).rejects.toMatchObject({ status: 402 });
      expect((await living!.state(info.id)).spent).toBeCloseTo(0.4, 9);
      expect(await after.admit(info.id, 'fourth', () => 0.6)).toMatchObject({ usd: 0.6 });
    } finally {
      await living!.close();
      first.close();
      second.close();
      dir.cleanup();
    }
  });
});
