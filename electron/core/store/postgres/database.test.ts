import pgClient from 'pg';
import { describe, expect, it } from 'vitest';
import { postgresForFile } from '../../../test-support/store-backends';
import { PgChangeToken } from './change-token';
import { PgDatabase, TickBatch } from './database';
import { PG_MIGRATIONS } from './migrations';

const postgres = postgresForFile();

describe('Postgres schema', () => {
  it('five processes starting together on an empty database apply each migration once', async () => {
    const url = await postgres.url('migrations_race');
    const opened = await Promise.all(Array.from({ length: 5 }, () => PgDatabase.open(url, { maxConnections: 2 })));
    try {
      const [db] = opened;
      expect(await db!.query('SELECT version FROM verdict_schema')).toEqual([{ version: PG_MIGRATIONS.length }]);
      const tables = await db!.query<{ table_name: string }>(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name",
      );
      expect(tables.map((t) => t.table_name)).toEqual([
        'api_keys',
        'attempts',
        'audit_log',
        'box_image_sizes',
        'box_items',
        'box_verdict_history',
        'box_verdicts',
        'calibrations',
        'capture_rules',
        'captured_items',
        'cascade_presets',
        'dataset_items',
        'datasets',
        'decisions',
        'endpoint_refusals',
        'eval_claims',
        'eval_results',
        'eval_runs',
        'human_reviews',
        'instances',
        'key_requests',
        'key_spend_days',
        'metric_minutes',
        'provider_key_meta',
        'question_sets',
        'review_leases',
        'reviews',
        'settings',
        'spend_ledger',
        'ui_sessions',
        'verdict_schema',
      ]);
    } finally {
      await Promise.all(opened.map((d) => d.close()));
    }
  });

  it('a database written by a newer version is refused and left untouched', async () => {
    const url = await postgres.url('from_the_future');
    const db = await PgDatabase.open(url);
    await db.query('UPDATE verdict_schema SET version = 999');
    await db.query("INSERT INTO api_keys (id, name, kind, hash, label, created_at) VALUES ('aaaaaaaaaaaa', 'kept', 'standard', '\\x00', 'l', 'now')");
    await db.close();
    await expect(PgDatabase.open(url)).rejects.toThrow(new RegExp(`newer Verdict \\(schema 999, this build knows ${PG_MIGRATIONS.length}\\)`));
    const client = new pgClient.Client({ connectionString: url });
    await client.connect();
    try {
      expect((await client.query('SELECT version FROM verdict_schema')).rows).toEqual([{ version: 999 }]);
      expect((await client.query('SELECT name FROM api_keys')).rows).toEqual([{ name: 'kept' }]);
    } finally {
      await client.end();
    }
  });

  it('opens at most the connections it is given: the pool and one listener', async () => {
    const url = await postgres.url('connections');
    const db = await PgDatabase.open(url, { maxConnections: 4 });
    try {
      // Twenty queries at once, each holding its connection a while.
      await Promise.all(Array.from({ length: 20 }, () => db.query('SELECT pg_sleep(0.02)')));
      const [{ n }] = (await db.query<{ n: string }>('SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database()')) as [{ n: string }];
      expect(Number(n)).toBeLessThanOrEqual(4);
    } finally {
      await db.close();
    }
  });

  it('the listener connects where it is told (past a transaction-mode pooler, the server itself) and the pool where the URL says', async () => {
    const url = await postgres.url('listen_url');
    const db = await PgDatabase.open(`${url}?application_name=pool`, { listenUrl: `${url}?application_name=listener` });
    try {
      await db.onNotice('verdict_keys', () => {});
      const rows = await db.query<{ application_name: string; query: string }>(
        "SELECT application_name, query FROM pg_stat_activity WHERE datname = current_database() AND application_name IN ('pool', 'listener')",
      );
      expect(rows.filter((r) => r.application_name === 'listener').map((r) => r.query)).toEqual([expect.stringMatching(/^LISTEN /)]);
      expect(rows.some((r) => r.application_name === 'pool')).toBe(true);
    } finally {
      await db.close();
    }
  });

  it('a change notice sent while the listener was cut off is made up for: every listener hears once it is back', async () => {
    const url = await postgres.url('listener_lost');
    const db = await PgDatabase.open(url);
    let heard = 0;
    await db.onNotice('verdict_keys', () => (heard += 1));
    try {
      // The server ends the listening connection, as a database restart or a network cut would.
      await db.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'");
      const deadline = Date.now() + 5_000;
      while (heard === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(heard).toBeGreaterThan(0);
      // Listening again: a notice committed now is heard.
      const before = heard;
      const again = Date.now() + 5_000;
      while (heard === before && Date.now() < again) {
        await db.query("SELECT pg_notify('verdict_keys', '')");
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(heard).toBeGreaterThan(before);
    } finally {
      await db.close();
    }
  });
});

describe('PgChangeToken', () => {
  it("is one per database and channel: a store's own write moves it at once for every store of the process reading that channel", async () => {
    const url = await postgres.url('change_tokens');
    const [db, other] = await Promise.all([PgDatabase.open(url), PgDatabase.open(url)]);
    try {
      const [items, itemsAgain, results, elsewhere] = await Promise.all([
        PgChangeToken.on(db, 'verdict_items'),
        PgChangeToken.on(db, 'verdict_items'),
        PgChangeToken.on(db, 'verdict_results'),
        PgChangeToken.on(other, 'verdict_items'),
      ]);
      expect(itemsAgain).toBe(items);
      expect(results).not.toBe(items);
      expect(elsewhere).not.toBe(items);
      const before = itemsAgain.read();
      items.moved();
      expect(itemsAgain.read()).toBe(before + 1);
    } finally {
      await Promise.all([db.close(), other.close()]);
    }
  });
});

describe('TickBatch', () => {
  it('commits what one turn of the event loop queued together, in order, and rejects every write of a failed commit', async () => {
    const commits: number[][] = [];
    const batch = new TickBatch<number>(async (items) => {
      if (items.includes(13)) throw new Error('refused');
      commits.push(items);
    });
    await Promise.all([batch.add(1), batch.add(2), batch.add(3)]);
    batch.addSoon(4);
    const five = batch.add(5);
    await five;
    expect(commits).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
    const failed = [batch.add(12), batch.add(13)];
    await expect(Promise.all(failed)).rejects.toThrow('refused');
    await expect(failed[0]).rejects.toThrow('refused');
    await batch.add(14);
    expect(commits.at(-1)).toEqual([14]);
  });

  it('while a commit is in flight, writes of the turns meanwhile wait and go together in the next one', async () => {
    const commits: number[][] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const batch = new TickBatch<number>(async (items) => {
      commits.push(items);
      if (items[0] === 1) await held;
    });
    const first = batch.add(1);
    await new Promise((r) => setImmediate(r));
    // Three later turns, while the first commit waits.
    const later: Promise<void>[] = [];
    for (const n of [2, 3, 4]) {
      later.push(batch.add(n));
      await new Promise((r) => setImmediate(r));
    }
    expect(commits).toEqual([[1]]);
    release();
    await Promise.all([first, ...later]);
    expect(commits).toEqual([[1], [2, 3, 4]]);
    await batch.drain();
  });
});
