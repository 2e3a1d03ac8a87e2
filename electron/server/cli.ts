import { collectorFromEnv, createCore, type Core, DATABASE_FILE, FileSecretStore, ownerOnlyFileCodec, createLogger, isPostgresUrl, redactUrl } from '../core';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ApiKeyCreateInputSchema, ApiKeyKindSchema, ApiKeyLimitsInputSchema } from '../../shared/schemas/inspector';
import type { AuditActor } from '../../shared/schemas/audit';
import { summarizeIssues } from '../../shared/contract/result';
import { defaultDataDir } from './data-dir';
import { startServer } from './start-server';
import type { ConnectionLimits } from './connections';
import { serverBanner } from './banner';
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { formatKeyTable } from './keys-table';
import { runStoreCommand, STORE_USAGE } from './store-command';
import { HELP, repeated, valued } from './cli-options';

const USAGE = `Usage:
  npm run serve -- [--port 8787] [--host 127.0.0.1] [--allowed-host NAME ...] [--data-dir DIR] [--database postgres://...] [--redis redis://...] [--body-limit BYTES] [--body-memory BYTES]
      [--database-pool CONNECTIONS] [--database-listen-url postgres://...] [--redis-timeout MS] [--redis-fallback refuse|local]
      [--headers-timeout SECONDS] [--body-min-rate BYTES_PER_SECOND] [--max-connections N] [--max-connections-per-address N (0: none)]
  npm run serve -- keys create --name NAME [--kind standard|management] [--credit-limit USD] [--rate-limit PER_MINUTE] [--data-dir DIR] [--database URL]
  npm run serve -- keys list [--data-dir DIR] [--database URL]
  npm run serve -- keys revoke ID [--data-dir DIR] [--database URL]
  npm run serve -- keys limits ID [--credit-limit USD|none] [--rate-limit PER_MINUTE|none] [--data-dir DIR] [--database URL]
${STORE_USAGE}
The data is in the data directory's SQLite file unless --database names a PostgreSQL server (a team's
instances share it). The keys commands work on existing data (the server's; the default unless
--data-dir or --database says otherwise). store copy checks the whole copy before it writes anything.
Options may also be set with VERDICT_PORT, VERDICT_HOST, VERDICT_DATA_DIR, VERDICT_DATABASE_URL and VERDICT_REDIS_URL.`;

const bundleDir = fileURLToPath(new URL('.', import.meta.url));

function readVersion(): string {
  try {
    return (JSON.parse(readFileSync(join(bundleDir, '..', '..', 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}

/**
 * VERDICT_SANDBOX_TIME_SCALE speeds up (below 1) or slows down the simulated providers' scripted
 * timing; VERDICT_SANDBOX_FAILURES=off stops their scripted failures (for demos and tests).
 */
function sandboxOptions(): { sandbox?: { timeScale?: number; failures?: boolean } } {
  const sandbox: { timeScale?: number; failures?: boolean } = {};
  const raw = process.env['VERDICT_SANDBOX_TIME_SCALE'];
  if (raw !== undefined) {
    const timeScale = Number(raw);
    if (!Number.isFinite(timeScale) || timeScale < 0) fail(`VERDICT_SANDBOX_TIME_SCALE must be a number of at least 0, not "${raw}"`);
    sandbox.timeScale = timeScale;
  }
  const failures = process.env['VERDICT_SANDBOX_FAILURES'];
  if (failures !== undefined) {
    if (failures !== 'on' && failures !== 'off') fail(`VERDICT_SANDBOX_FAILURES must be "on" or "off", not "${failures}"`);
    sandbox.failures = failures === 'on';
  }
  return Object.keys(sandbox).length > 0 ? { sandbox } : {};
}

function fail(message: string): never {
  process.stderr.write(`${message}\n\n${USAGE}\n`);
  process.exit(2);
}

/** A whole number of at least `min` from a flag or its variable, or undefined when neither is given; `what` says what it must be. */
function wholeSetting(flag: string, variable: string, value: string | undefined, min: number, what = `a whole number of at least ${min}`): number | undefined {
  const raw = value ?? process.env[variable];
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) fail(`--${flag} (or ${variable}) must be ${what}, not "${raw}"`);
  return n;
}

/** The connection limits the command line or the environment set (connections.ts has the defaults). */
function connectionSettings(values: Record<string, unknown>): Partial<ConnectionLimits> {
  const get = (flag: string) => values[flag] as string | undefined;
  const headers = wholeSetting('headers-timeout', 'VERDICT_HEADERS_TIMEOUT_SECONDS', get('headers-timeout'), 1);
  const rate = wholeSetting('body-min-rate', 'VERDICT_BODY_MIN_RATE', get('body-min-rate'), 0);
  const total = wholeSetting('max-connections', 'VERDICT_MAX_CONNECTIONS', get('max-connections'), 1);
  const perAddress = wholeSetting('max-connections-per-address', 'VERDICT_MAX_CONNECTIONS_PER_ADDRESS', get('max-connections-per-address'), 0);
  return {
    ...(headers !== undefined ? { headersTimeoutMs: headers * 1000 } : {}),
    ...(rate !== undefined ? { bodyMinBytesPerSecond: rate } : {}),
    ...(total !== undefined ? { maxConnections: total } : {}),
    ...(perAddress !== undefined ? { maxConnectionsPerAddress: perAddress } : {}),
  };
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be a whole number from 0 to 65535, not "${value}"`);
  return port;
}

type CommandValues = ReturnType<typeof parseCommandLine>['values'];

/** The command line, read by node:util's parseArgs; a mistake in it ends the process with the usage. */
function parseCommandLine(argv: string[]) {
  return (() => {
    try {
      return parseArgs({
        args: argv,
        allowPositionals: true,
        options: {
          ...valued(
            'port',
            'host',
            'data-dir',
            'database',
            'redis',
            'database-pool',
            'database-listen-url',
            'redis-timeout',
            'redis-fallback',
            'from',
            'to',
            'body-limit',
            'body-memory',
            'headers-timeout',
            'body-min-rate',
            'max-connections',
            'max-connections-per-address',
            'name',
            'kind',
            'credit-limit',
            'rate-limit',
          ),
          ...repeated('allowed-host'),
          ...HELP,
        },
      });
    } catch (error) {
      return fail((error as Error).message);
    }
  })();
}

/** Where a team keeps its data and shared limits, from the options and their environment variables; each mistake ends the process naming it. */
function storeSettings(values: CommandValues, dataDir: string) {
  // A team's shared store: every domain's data on this PostgreSQL server instead of the data directory's SQLite file.
  const database = values.database ?? process.env['VERDICT_DATABASE_URL'] ?? undefined;
  if (database !== undefined && !isPostgresUrl(database))
    fail(
      `--database (or VERDICT_DATABASE_URL) must be a postgres:// URL, not "${redactUrl(database)}"; leave it out to keep the data in ${join(dataDir, DATABASE_FILE)}`,
    );
  // A team's shared limits: keys with a rate or credit limit are admitted on this Redis by every instance.
  const redis = values.redis ?? process.env['VERDICT_REDIS_URL'] ?? undefined;
  if (redis !== undefined && !/^rediss?:\/\//i.test(redis))
    fail(`--redis (or VERDICT_REDIS_URL) must be a redis:// or rediss:// URL, not "${redactUrl(redis)}"`);
  if (redis !== undefined && database === undefined)
    fail('--redis shares limits between instances that share their data: name the database too (--database postgres://… or VERDICT_DATABASE_URL)');
  // A team's connection budget: connections per instance, and the listener past a transaction-mode pooler.
  const poolText = values['database-pool'] ?? process.env['VERDICT_DATABASE_POOL'];
  const pool = poolText === undefined ? undefined : Number(poolText);
  if (pool !== undefined && (!Number.isInteger(pool) || pool < 2 || pool > 200))
    fail(`--database-pool (or VERDICT_DATABASE_POOL) must be a whole number of connections from 2 to 200 (the listener's included), not "${poolText}"`);
  const listenUrl = values['database-listen-url'] ?? process.env['VERDICT_DATABASE_LISTEN_URL'];
  if (listenUrl !== undefined && !isPostgresUrl(listenUrl))
    fail(`--database-listen-url (or VERDICT_DATABASE_LISTEN_URL) must be a postgres:// URL, not "${redactUrl(listenUrl)}"`);
  if ((pool !== undefined || listenUrl !== undefined) && database === undefined)
    fail('--database-pool and --database-listen-url set how the database is reached: name the database too (--database postgres://… or VERDICT_DATABASE_URL)');
  const redisTimeoutText = values['redis-timeout'] ?? process.env['VERDICT_REDIS_TIMEOUT_MS'];
  const redisTimeoutMs = redisTimeoutText === undefined ? undefined : Number(redisTimeoutText);
  if (redisTimeoutMs !== undefined && (!Number.isInteger(redisTimeoutMs) || redisTimeoutMs < 10 || redisTimeoutMs > 10_000))
    fail(`--redis-timeout (or VERDICT_REDIS_TIMEOUT_MS) must be a whole number of milliseconds from 10 to 10000, not "${redisTimeoutText}"`);
  const fallback = values['redis-fallback'] ?? process.env['VERDICT_REDIS_FALLBACK'];
  if (fallback !== undefined && fallback !== 'refuse' && fallback !== 'local')
    fail(`--redis-fallback (or VERDICT_REDIS_FALLBACK) must be "refuse" or "local", not "${fallback}"`);
  if (fallback !== undefined && redis === undefined)
    fail('--redis-fallback says what to do while Redis is away: name Redis too (--redis redis://… or VERDICT_REDIS_URL)');
  return { database, redis, pool, listenUrl, redisTimeoutMs, fallback: fallback as 'refuse' | 'local' | undefined };
}

/** How the server listens and stops, from the options and their environment variables. */
function serveSettings(values: CommandValues) {
  const bodyLimit = values['body-limit'] ?? process.env['VERDICT_BODY_LIMIT'];
  const bodyLimitBytes = bodyLimit === undefined ? undefined : Number(bodyLimit);
  if (bodyLimitBytes !== undefined && (!Number.isInteger(bodyLimitBytes) || bodyLimitBytes < 1024)) {
    fail(`--body-limit must be a whole number of bytes, at least 1024, not "${bodyLimit}"`);
  }
  const bodyMemoryBytes = wholeSetting(
    'body-memory',
    'VERDICT_BODY_MEMORY',
    values['body-memory'],
    1024 * 1024,
    'a whole number of bytes, at least 1048576 (1 MiB)',
  );
  const host = values.host ?? process.env['VERDICT_HOST'] ?? '127.0.0.1';
  // Names a reverse proxy or DNS gives this server; comma-separated in VERDICT_ALLOWED_HOSTS.
  const allowedHosts =
    values['allowed-host'] ??
    (process.env['VERDICT_ALLOWED_HOSTS'] ?? '')
      .split(',')
      .map((h) => h.trim())
      .filter(Boolean);
  // How a SIGTERM stops the server (below).
  const drainMs = Number(process.env['VERDICT_DRAIN_SECONDS'] ?? 30) * 1000;
  const noticeMs = Number(process.env['VERDICT_DRAIN_NOTICE_SECONDS'] ?? 5) * 1000;
  if (!Number.isFinite(drainMs) || drainMs < 0) fail(`VERDICT_DRAIN_SECONDS must be a number of seconds, not "${process.env['VERDICT_DRAIN_SECONDS']}"`);
  if (!Number.isFinite(noticeMs) || noticeMs < 0)
    fail(`VERDICT_DRAIN_NOTICE_SECONDS must be a number of seconds, not "${process.env['VERDICT_DRAIN_NOTICE_SECONDS']}"`);
  const port = parsePort(values.port ?? process.env['VERDICT_PORT'] ?? '8787');
  return { bodyLimitBytes, bodyMemoryBytes, host, allowedHosts, drainMs, noticeMs, port };
}

/** A server that could not start: the reason alone (not a mistake in the command line, so no usage), and exit status 2. */
function startFailed(error: Error, dataDir: string): never {
  // Not a mistake in the command line: the reason alone, without the usage.
  const malformed = /malformed|not a database/i.test(error.message) && !error.message.startsWith('The data file');
  process.stderr.write(
    `${
      malformed
        ? `The data file ${join(dataDir, DATABASE_FILE)} cannot be read as a Verdict database (SQLite says: ${error.message}). It was left as it is; restore it from a backup, or move it aside to start with an empty one.`
        : error.message
    }\n`,
  );
  process.exit(2);
}

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseCommandLine(argv);
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const dataDir = values['data-dir'] ?? defaultDataDir();
  const { database, redis, pool, listenUrl, redisTimeoutMs, fallback } = storeSettings(values, dataDir);
  // Traces for the operator's collector, named by the standard OpenTelemetry variables.
  const otlp = collectorFromEnv(process.env);
  if (otlp.problem) fail(otlp.problem);
  if (positionals[0] === 'keys') {
    await runKeys(positionals.slice(1), dataDir, database, values);
    return;
  }
  if (positionals[0] === 'store') {
    process.exitCode = await runStoreCommand(positionals.slice(1), values);
    return;
  }
  if (positionals.length > 0) fail(`Unknown command "${positionals.join(' ')}"`);

  const { bodyLimitBytes, bodyMemoryBytes, host, allowedHosts, drainMs, noticeMs, port } = serveSettings(values);
  const connections = connectionSettings(values);
  const running = await startServer({
    connections,
    port,
    host,
    allowedHosts,
    dataDir,
    ...(database ? { database } : {}),
    ...(redis ? { redis } : {}),
    ...(redisTimeoutMs !== undefined ? { redisTimeoutMs } : {}),
    ...(fallback ? { redisFallback: fallback } : {}),
    ...(pool !== undefined || listenUrl !== undefined ? { databaseConnections: { maxConnections: pool, listenUrl } } : {}),
    ...(otlp.collector ? { otlp: otlp.collector } : {}),
    rendererDir: join(bundleDir, '..', 'renderer'),
    version: readVersion(),
    logger: createLogger(),
    ...(bodyLimitBytes ? { bodyLimitBytes } : {}),
    ...(bodyMemoryBytes ? { bodyMemoryBytes } : {}),
    ...sandboxOptions(),
  }).catch((error: Error) => startFailed(error, dataDir));

  const lines = serverBanner({
    url: running.url,
    uiUrl: running.uiUrl,
    dataDir,
    data: running.core.store.where + (running.core.admission.where ? `; limits shared on ${running.core.admission.where}` : ''),
    host,
    allowedHosts,
    initialKey: running.initialManagementKey,
  });
  process.stdout.write(`${lines.join('\n')}\n`);

  // SIGTERM (a deploy): /readyz turns 503, the load balancer gets a few seconds to notice, requests in
  // flight finish (30 s at most), then the process ends. SIGINT (Ctrl-C) closes at once.
  process.once('SIGINT', () => void running.close().then(() => process.exit(0)));
  process.once('SIGTERM', () => void running.drain({ noticeMs, drainMs }).then(() => process.exit(0)));
}

/** What the keys commands change is logged as done on the command line (whoever can run them holds the data). */
const COMMAND_LINE: AuditActor = { kind: 'command_line' };

/** The options the keys commands read. */
type KeyOptions = { name?: string | undefined; kind?: string | undefined; 'credit-limit'?: string | undefined; 'rate-limit'?: string | undefined };

/** `keys create`: the key made with its limits, shown once. */
async function createKey(core: Core, values: KeyOptions): Promise<void> {
  if (!values.name) fail('keys create needs --name');
  const kind = ApiKeyKindSchema.safeParse(values.kind ?? 'standard');
  if (!kind.success) fail(`--kind must be "standard" or "management", not "${values.kind}"`);
  const limits = ApiKeyCreateInputSchema.safeParse({
    name: values.name,
    kind: kind.data,
    credit_limit: values['credit-limit'] === undefined ? null : Number(values['credit-limit']),
    rate_limit_rpm: values['rate-limit'] === undefined ? null : Number(values['rate-limit']),
  });
  if (!limits.success) fail(`keys create: ${summarizeIssues(limits.error)}`);
  const created = await core.keyManagement.create(COMMAND_LINE, limits.data);
  const extra = [
    created.info.credit_limit !== null ? `credit $${created.info.credit_limit}` : null,
    created.info.rate_limit_rpm !== null ? `${created.info.rate_limit_rpm} requests/minute` : null,
  ].filter(Boolean);
  process.stdout.write(
    `Created ${created.info.kind} key ${created.info.id} "${created.info.name}"${extra.length ? ` (${extra.join(', ')})` : ''}. It is shown only this once:\n${created.key}\n`,
  );
}

async function runKeys(args: string[], dataDir: string, database: string | undefined, values: KeyOptions): Promise<void> {
  // A mistyped --data-dir must not quietly become a new, empty data directory.
  if (database === undefined && !existsSync(join(dataDir, DATABASE_FILE))) {
    fail(
      `No Verdict data in ${dataDir} (it has no ${DATABASE_FILE}). Check --data-dir, or start the server once with it: npm run serve -- --data-dir ${dataDir}`,
    );
  }
  const core = await createCore({
    dataDir,
    secrets: new FileSecretStore(join(dataDir, 'secrets.json'), ownerOnlyFileCodec),
    host: 'browser',
    version: readVersion(),
    ...(database ? { database } : {}),
    // Key management needs no simulated providers or discovery, and never writes the request log (a server may be writing it).
    sandbox: {},
    discovery: false,
    requestLog: 'read',
    // A command, not one of a team's instances: it takes up no evaluation run and is not counted live.
    resumeEvaluations: false,
  });
  try {
    const [action, id] = args;
    if (action === 'create') {
      await createKey(core, values);
    } else if (action === 'list') {
      const keys = await core.apiKeys.list();
      process.stdout.write(keys.length === 0 ? 'No keys yet.\n' : formatKeyTable(keys));
    } else if (action === 'revoke') {
      if (!id) fail('keys revoke needs the key id (see keys list)');
      const before = (await core.apiKeys.list()).find((k) => k.id === id);
      if (before?.revoked_at) {
        process.stdout.write(`Key ${before.id} "${before.name}" was already revoked (${before.revoked_at}); nothing changed.\n`);
        return;
      }
      // An unknown id is reported in one line by the handler around main().
      const info = await core.keyManagement.revoke(COMMAND_LINE, id);
      process.stdout.write(`Revoked ${info.id} "${info.name}".\n`);
    } else if (action === 'limits') {
      if (!id) fail('keys limits needs the key id (see keys list)');
      const before = (await core.apiKeys.list()).find((k) => k.id === id);
      if (!before) fail(`keys limits: no API key with id "${id}" (see keys list)`);
      const given = (value: string | undefined, now: number | null) => (value === undefined ? now : value === 'none' ? null : Number(value));
      const limits = ApiKeyLimitsInputSchema.safeParse({
        credit_limit: given(values['credit-limit'], before.credit_limit),
        rate_limit_rpm: given(values['rate-limit'], before.rate_limit_rpm),
      });
      if (!limits.success) fail(`keys limits: ${summarizeIssues(limits.error)}`);
      const info = await core.keyManagement.updateLimits(COMMAND_LINE, id, limits.data);
      const shown = (limit: number | null, unit: string) => (limit === null ? 'none' : `${limit}${unit}`);
      process.stdout.write(
        `Key ${info.id} "${info.name}": credit ${shown(info.credit_limit, ' USD')}, rate ${shown(info.rate_limit_rpm, ' requests/minute')}.\n`,
      );
    } else {
      fail(`Unknown keys command "${action ?? ''}"`);
    }
  } finally {
    await core.close();
  }
}

// Anything unexpected is one line on stderr and a non-zero exit, never a stack through the bundle.
await main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`verdict: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
