import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll } from 'vitest';
import { PgDatabase } from '../core/store/postgres/database';
import { Store } from '../core/store/sqlite/database';
import { sharedPostgres, type SharedPostgres } from './shared-postgres';
import { tempDir } from './temp-core';

/**
 * The two backends a storage contract runs on: a real SQLite file, and a fresh database on the real
 * PostgreSQL server the unit run shares (shared-postgres.ts). Each `open` is a fresh, empty store
 * opened twice, independently: "another process" to the store is another connection (a second
 * SQLite connection to the file; a second Postgres pool), which is what a second process is.
 */
export interface Backend<T> {
  name: 'SQLite' | 'Postgres';
  open(): Promise<{ a: T; b: T; close(): Promise<void> }>;
}

export interface Makers<T> {
  sqlite(store: Store): T | Promise<T>;
  postgres(db: PgDatabase): T | Promise<T>;
}

/** Both backends; Postgres is the unit run's server (shared-postgres.ts), its databases dropped after the file. */
export function storeBackends<T>(make: Makers<T>): [string, Backend<T>][] {
  let postgres: SharedPostgres | undefined;
  beforeAll(() => {
    postgres = sharedPostgres();
  });
  afterAll(() => postgres?.stop());
  const sqlite: Backend<T> = {
    name: 'SQLite',
    async open() {
      const dir = tempDir();
      const path = join(dir.path, 'verdict.sqlite');
      const first = Store.open(path);
      const second = Store.open(path);
      return {
        a: await make.sqlite(first),
        b: await make.sqlite(second),
        async close() {
          first.close();
          second.close();
          dir.cleanup();
        },
      };
    },
  };
  const pg: Backend<T> = {
    name: 'Postgres',
    async open() {
      const url = await postgres!.createDatabase('store');
      const [first, second] = await Promise.all([PgDatabase.open(url), PgDatabase.open(url)]);
      return {
        a: await make.postgres(first),
        b: await make.postgres(second),
        async close() {
          await first.close();
          await second.close();
        },
      };
    },
  };
  return [
    ['SQLite', sqlite],
    ['Postgres', pg],
  ];
}

/** A fresh database on the run's Postgres, for tests of the Postgres schema itself. */
export function postgresForFile(): { url(name: string): Promise<string> } {
  let postgres: SharedPostgres | undefined;
  beforeAll(() => {
    postgres = sharedPostgres();
  });
  afterAll(() => postgres?.stop());
  return { url: (name) => postgres!.createDatabase(name) };
}

const CHECKOUT = join(import.meta.dirname, '..', '..');

/**
 * A program of test-support (a TypeScript entry) bundled with esbuild, for running it as separate
 * processes beside the test: `run(args)` runs one with Node and resolves with what it printed.
 */
export async function bundled(entry: string): Promise<{ run(args: readonly string[]): Promise<string>; remove(): void; script: string }> {
  // Inside the checkout, so that the bundle's imports (pg) resolve from its node_modules.
  const cache = join(CHECKOUT, 'node_modules', '.cache', 'verdict');
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, 'process-'));
  const script = join(dir, basename(entry).replace(/\.ts$/, '.mjs'));
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: script,
    packages: 'external',
    logLevel: 'silent',
  });
  return {
    script,
    run: (args) =>
      new Promise<string>((resolve, reject) =>
        execFile(process.execPath, [script, ...args], { cwd: CHECKOUT }, (error, stdout) => (error ? reject(error) : resolve(stdout))),
      ),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
