import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedPostgres, type SharedPostgres } from '../../../test-support/shared-postgres';
import { systemClock } from '../../clock';
import { HealthRegistry } from '../../routing/health';
import { PgDatabase } from './database';
import { PgHealthBroadcast } from './health-broadcast';

/** Polls until `check` holds, at most `ms`; how long it took. */
async function within(ms: number, check: () => boolean): Promise<number> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
  return Date.now() - started;
}

describe("a team's instances tell each other of endpoints to leave alone (Postgres NOTIFY)", () => {
  let postgres: SharedPostgres;
  let dbs: PgDatabase[];
  let here: HealthRegistry;
  let there: HealthRegistry;
  beforeAll(async () => {
    postgres = sharedPostgres();
    const url = await postgres.createDatabase('health');
    dbs = await Promise.all([PgDatabase.open(url), PgDatabase.open(url)]);
    here = new HealthRegistry(systemClock);
    there = new HealthRegistry(systemClock);
    await here.shareWith(new PgHealthBroadcast(dbs[0]!));
    await there.shareWith(new PgHealthBroadcast(dbs[1]!));
  }, 60_000);
  afterAll(async () => {
    await Promise.all(dbs?.map((d) => d.close()) ?? []);
    await postgres?.stop();
  });

  it("a provider's Retry-After seen by one instance cools the endpoint on the other within a second, until the same moment", async () => {
    here.onRetryAfter('acme/judge@1', 20_000);
    await within(1_000, () => there.snapshot('acme/judge@1').cooldownUntil !== null);
    expect(there.snapshot('acme/judge@1').cooldownUntil).toBe(here.snapshot('acme/judge@1').cooldownUntil);
    expect(there.snapshot('acme/judge@1').paused).toBe(false);
  });

  it('a breaker opened on repeated faults by one instance pauses the endpoint on the other; failures below the threshold tell nobody', async () => {
    here.onFailure('acme/judge@2');
    here.onFailure('acme/judge@2');
    await new Promise((r) => setTimeout(r, 200));
    expect(there.snapshot('acme/judge@2')).toMatchObject({ paused: false, consecutiveFailures: 0 });
    here.onFailure('acme/judge@2');
    expect(here.snapshot('acme/judge@2').paused).toBe(true);
    await within(1_000, () => there.snapshot('acme/judge@2').paused);
  });

  it('anything else on the channel is ignored, and a cool-down already over changes nothing', async () => {
    await dbs[0]!.query("SELECT pg_notify('verdict_health', $1)", ['not json']);
    await dbs[0]!.query("SELECT pg_notify('verdict_health', $1)", [JSON.stringify({ endpointId: 'x', kind: 'melt', until: Date.now() + 5_000 })]);
    await dbs[0]!.query("SELECT pg_notify('verdict_health', $1)", [JSON.stringify({ endpointId: 'old', kind: 'cooldown', until: Date.now() - 60_000 })]);
    // A valid one after them arrives, so the ones before were read (and left).
    here.onRetryAfter('acme/judge@3', 5_000);
    await within(1_000, () => there.snapshot('acme/judge@3').cooldownUntil !== null);
    expect(there.snapshot('x')).toMatchObject({ paused: false, cooldownUntil: null });
    expect(there.snapshot('old')).toMatchObject({ paused: false, cooldownUntil: null });
  });
});
