import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisMissing, startRedis, type TestRedis } from '../../../test-support/redis';
import { tempDir } from '../../../test-support/temp-core';
import { systemClock } from '../../clock';
import { GatewayError } from '../../errors';
import { RedisAdmission } from '../../store/redis/admission';
import { Store } from '../../store/sqlite/database';
import { SqliteKeyStore } from '../../store/sqlite/key-store';
import { ApiKeys } from '../api-keys';
import { SpendLedger } from '../spend-ledger';
import type { Admission, Reservation } from './admission';
import { FallbackAdmission } from './fallback';
import { LocalAdmission } from './local';
import { SharedKeyAdmission } from './shared';

const missing = redisMissing();

interface Opened {
  keys: ApiKeys;
  ledger: SpendLedger;
  admission: Admission;
  close(): Promise<void>;
}

/** Each implementation over a fresh SQLite key store, as the composition root would make it. */
const implementations: [string, (redisUrl: string | null) => Promise<Opened>][] = [
  [
    'local',
    async () => {
      const dir = tempDir();
      const store = Store.open(join(dir.path, 'keys.sqlite'));
      const keyStore = new SqliteKeyStore(store);
      const keys = await ApiKeys.open(keyStore, systemClock);
      const ledger = new SpendLedger(keyStore, systemClock, (id) => keys.row(id)?.spent);
      return { keys, ledger, admission: await LocalAdmission.open(keys, ledger, keyStore, systemClock), close: async () => (store.close(), dir.cleanup()) };
    },
  ],
  ...(['shared', 'fallback'] as const).map(
    (kind) =>
      [
        kind,
        async (redisUrl: string | null) => {
          const dir = tempDir();
          const store = Store.open(join(dir.path, 'keys.sqlite'));
          const keyStore = new SqliteKeyStore(store);
          const redis = await RedisAdmission.open(redisUrl!, { commandTimeoutMs: 2_000, leaseMs: 60_000 });
          const keys = await ApiKeys.open(keyStore, systemClock, async (id) => void (await redis.bumpGeneration(id)));
          const ledger = new SpendLedger(keyStore, systemClock, (id) => keys.row(id)?.spent);
          const shared = new SharedKeyAdmission(keys, keyStore, redis);
          const admission =
            kind === 'shared'
              ? shared
              : new FallbackAdmission(
                  shared,
                  () => 1,
                  () => Date.now(),
                );
          return { keys, ledger, admission, close: async () => (await redis.close(), store.close(), dir.cleanup()) };
        },
      ] as [string, (redisUrl: string | null) => Promise<Opened>],
  ),
];

/** The admission contract: every implementation admits and refuses alike, with the same texts. */
describe.each(implementations)('Admission (%s)', (name, open) => {
  const needsRedis = name !== 'local';
  let redis: (TestRedis & { close(): Promise<void> }) | null = null;
  beforeAll(async () => {
    if (needsRedis && missing === null) redis = await startRedis();
  }, 20_000);
  afterAll(() => redis?.close());
  const start = () => open(redis?.url ?? null);
  // Skipped only where no Redis can be started here, saying why in the test's name.
  const noRedis = needsRedis && missing !== null;
  const run = (title: string, test: () => Promise<void>) => it.skipIf(noRedis)(noRedis ? `${title} (skipped: ${missing})` : title, test);

  run('a key without limits holds nothing and is never asked what a request may cost', async () => {
    const { keys, admission, close } = await start();
    try {
      const { info } = await keys.create('free', 'standard');
      await admission.onRequest(info.id, 'r0', false);
      admission.onDecision(info.id);
      const held = await admission.admit(info.id, 'r1', () => {
        throw new Error('asked');
      });
      expect(held).toBeNull();
    } finally {
      await close();
    }
  });

  run('a rate limit admits its requests a minute and refuses the next with 429, Retry-After and the same text', async () => {
    const { keys, admission, close } = await start();
    try {
      const { info } = await keys.create('tight', 'standard', { credit_limit: null, rate_limit_rpm: 2 });
      await admission.onRequest(info.id, 'a', false);
      await admission.onRequest(info.id, 'b', false);
      const refused = await Promise.resolve()
        .then(() => admission.onRequest(info.id, 'c', false))
        .catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(GatewayError);
      const error = refused as GatewayError;
      expect(error.status).toBe(429);
      expect(Number(error.headers?.['Retry-After'])).toBeGreaterThanOrEqual(1);
      expect(error.message).toMatch(new RegExp(`^Key ${info.label.replace('…', '.')} is limited to 2 requests per minute; try again in \\d+ s$`));
    } finally {
      await close();
    }
  });

  run('credit is held at admission, refused with 402 when it would pass the limit, and freed by the settle', async () => {
    const { keys, ledger, admission, close } = await start();
    try {
      const { info } = await keys.create('budget', 'standard', { credit_limit: 1, rate_limit_rpm: null });
      const first = (await admission.admit(info.id, 'x1', () => 0.6)) as Reservation;
      expect(first).toMatchObject({ keyId: info.id, usd: 0.6 });
      const refused = await Promise.resolve()
        .then(() => admission.admit(info.id, 'x2', () => 0.6))
        .catch((e: unknown) => e);
      expect(refused).toMatchObject({ status: 402 });
      expect((refused as GatewayError).message).toMatch(
        /has \$0\.4 of its \$1 credit free, and this request may cost up to \$0\.6; raise its limit or use another key$/,
      );
      // It cost $0.10: settled and charged, $0.90 is free again.
      admission.settle(info.id, first, 0.1);
      await ledger.charge(info.id, 0.1, 'x1');
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await admission.admit(info.id, 'x3', () => 0.6)).toMatchObject({ usd: 0.6 });
    } finally {
      await close();
    }
  });
});
