import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/**
 * A real PostgreSQL server on loopback for the store's tests: Debian's `postgresql` package (15 or
 * newer), a data directory of its own in a temporary directory and a free port. `initdb` is slow
 * (about 2 s), so a template data directory is made once per machine and copied for each server.
 * `initdb` and `postgres` refuse to run as root: as root they run as the `postgres` user the
 * package creates.
 */
export interface TestPostgres {
  /** `postgres://verdict@127.0.0.1:PORT/verdict` */
  readonly url: string;
  /** A fresh, empty database on this server; its URL. */
  createDatabase(name: string): Promise<string>;
  stop(): void;
}

const TEMPLATE = join(tmpdir(), 'verdict-pg-template-v1');

/** The directory of Debian's PostgreSQL binaries, newest first; undefined when none is installed. */
export function postgresBin(): string | undefined {
  if (process.env.VERDICT_PG_BIN) return process.env.VERDICT_PG_BIN;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => /^\d+$/.test(v) && existsSync(join(root, v, 'bin', 'postgres')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], 'bin') : undefined;
}

const isRoot = () => process.getuid?.() === 0;

/** Runs a PostgreSQL binary, as the `postgres` user when this process is root. */
function runAsOwner(bin: string, args: string[]): void {
  const [command, argv] = isRoot() ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  execFileSync(command, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
}

function ownedByPostgres(dir: string): void {
  if (isRoot()) execFileSync('chown', ['-R', 'postgres:postgres', dir]);
}

function ensureTemplate(bin: string): void {
  if (existsSync(join(TEMPLATE, 'PG_VERSION'))) return;
  const building = mkdtempSync(join(tmpdir(), 'verdict-pg-building-'));
  chmodSync(building, 0o755);
  const data = join(building, 'data');
  mkdirSync(data, { mode: 0o700 });
  ownedByPostgres(building);
  runAsOwner(join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'verdict', '--no-sync', '-E', 'UTF8', '--locale=C']);
  try {
    // Another test file may have made it meanwhile: the first rename wins.
    renameSync(data, TEMPLATE);
  } catch {
    /* the other one's template is as good */
  }
  rmSync(building, { recursive: true, force: true });
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function startPostgres(): Promise<TestPostgres> {
  const bin = postgresBin();
  if (!bin) throw new Error("PostgreSQL is not installed (Debian's postgresql package); the store's Postgres tests need it");
  ensureTemplate(bin);
  const root = mkdtempSync(join(tmpdir(), 'verdict-pg-'));
  chmodSync(root, 0o755);
  const data = join(root, 'data');
  cpSync(TEMPLATE, data, { recursive: true });
  chmodSync(data, 0o700);
  ownedByPostgres(root);
  const port = await freePort();
  const options = `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
  runAsOwner(join(bin, 'pg_ctl'), ['-D', data, '-o', options, '-l', join(root, 'log'), '-w', '-t', '30', 'start']);
  const url = (db: string) => `postgres://verdict@127.0.0.1:${port}/${db}`;
  runAsOwner(join(bin, 'createdb'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'verdict', 'verdict']);
  let stopped = false;
  return {
    url: url('verdict'),
    async createDatabase(name) {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${name}`);
      const client = new pg.Client({ connectionString: url('verdict') });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return url(name);
    },
    stop() {
      if (stopped) return;
      stopped = true;
      const [command, argv] = isRoot()
        ? ['runuser', ['-u', 'postgres', '--', join(bin, 'pg_ctl'), '-D', data, '-m', 'immediate', '-w', 'stop']]
        : [join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']];
      spawnSync(command, argv, { stdio: 'ignore' });
      rmSync(root, { recursive: true, force: true });
    },
  };
}
