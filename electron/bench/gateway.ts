import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { startPostgres } from '../test-support/postgres';
import { startRedis } from '../test-support/redis';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { planBench } from './plan-bench';
import { captureBench } from './capture-bench';
import { AB_DETAIL, compareBuilds, median, pairedSlots, range } from './gateway-ab';
import { interleavedLatency, load, measureFloor, measurePortkey, ms, recordCalls, startChild, type UpstreamCall } from './gateway-measure';
import { scenarios } from './gateway-scenarios';
import { cpuMicros, peakRssMiB, rssMiB } from './proc';
import { floodRows } from './body-flood';
import { below, fmt, publish, row, type BenchRow } from './report';
import {
  backendRows,
  trafficRows,
  idleRows,
  IDLE_SETTLE_MS,
  IDLE_STARTS,
  rssRow,
  summarise,
  type BackendFigures,
  type Round,
  type Scenario,
} from './gateway-rows';

/**
 * Gateway overhead on the paths users take, each measured against the same work done directly in
 * the same run, with an upstream on loopback that answers at once:
 * (a) a Decisions noul question on a 1 KB state, turned into an OpenAI-format streaming chat call
 *     with logprobs and answered from top_logprobs (what every cloud provider but a native one gets);
 * (b) six noul questions on a 5,000-token state: the first call, then the other five together;
 * (c) Anthropic Messages answering with stated probabilities (structured output);
 * (d) a box question on a 1-megapixel PNG;
 * (e) the native Decisions passthrough (a provider that speaks this API itself).
 * "The same work done directly" is what the gateway sent the upstream, recorded from one call
 * through it: the same bodies, in the same order (the first call, then the rest at once).
 */
const root = join(import.meta.dirname, '..', '..');
const cli = join(root, 'dist', 'server', 'cli.mjs');
// VERDICT_BENCH_QUICK=1 runs one short round, to try a change; the figures worth quoting come from the full run.
const QUICK = process.env['VERDICT_BENCH_QUICK'] === '1';
const ROUNDS = QUICK ? 1 : 3;
const PAIRS = QUICK ? 500 : 4000;
const LOAD_SECONDS = QUICK ? 3 : 8;
// VERDICT_BENCH_ONLY=a,e measures only those scenarios (letters as in their names), to try a change; `idle` is the idle server's RSS,
// `flood` the gateway's memory when many callers send the largest images at once.
const ONLY = process.env['VERDICT_BENCH_ONLY']?.split(',').map((l) => `(${l.trim()})`);
// VERDICT_BENCH_SMOKE=1 (npm run bench:smoke) leaves out the scenarios on PostgreSQL and Redis: a smoke round checks that the bench runs.
const SMOKE = process.env['VERDICT_BENCH_SMOKE'] === '1';
// VERDICT_BENCH_AGAINST=DIR (another checkout, built) measures the chosen scenarios on this build and on that one side by side (gateway-ab.ts).
const AGAINST = process.env['VERDICT_BENCH_AGAINST'];
// VERDICT_BENCH_PROFILE=DIR writes a V8 CPU profile of each gateway process there (node --cpu-prof), to see where its time goes.
const PROFILE_DIR = process.env['VERDICT_BENCH_PROFILE'];
/** Decisions requests the gateway answered (any status), from its Prometheus metrics. */
async function decisionsAnswered(gatewayUrl: string): Promise<number> {
  const text = await (await fetch(gatewayUrl.replace(/\/api\/alpha\/decisions$/, '/metrics'))).text();
  return [...text.matchAll(/^verdict_http_requests_total\{route="\/api\/alpha\/decisions",status="\d+"\} (\d+)$/gm)].reduce((n, m) => n + Number(m[1]), 0);
}

/** A standard key with a rate and a credit limit, made through the gateway's API. */
async function limitedKey(base: string, management: string): Promise<string> {
  const response = await fetch(`${base}/api/v1/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${management}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench, limited', kind: 'standard', credit_limit: 1_000_000, rate_limit_rpm: 100_000_000 }),
  });
  if (response.status !== 201) throw new Error(`no limited key: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { key: string }).key;
}

/** A gateway of its own for one scenario (fresh data directory and process), so each scenario's CPU and memory are its own. */
async function startGateway(
  catalog: string,
  database?: string,
  redis?: string,
  server = cli,
): Promise<{ gatewayUrl: string; auth: Record<string, string>; pid: number; stop: () => Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'verdict-bench-'));
  writeFileSync(join(dataDir, 'catalog.json'), catalog);
  const profile = PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [];
  const gateway = await startChild([...profile, server, '--port', '0', '--data-dir', dataDir], {
    VERDICT_LOG_LEVEL: 'error',
    // Stopped by SIGTERM with no load balancer to tell: no drain notice.
    VERDICT_DRAIN_NOTICE_SECONDS: '0',
    ...(database ? { VERDICT_DATABASE_URL: database } : {}),
    ...(redis ? { VERDICT_REDIS_URL: redis } : {}),
  });
  // A fresh data directory: the server prints its first management key once.
  const management = /^\s+(vd-\S+)$/m.exec(gateway.output)![1]!;
  const base = /Verdict is serving at (\S+)/.exec(gateway.output)![1]!;
  // With shared limits, requests go on a key that has both (a rate and a credit nobody reaches here), so each is admitted on Redis.
  const key = redis ? await limitedKey(base, management) : management;
  return {
    gatewayUrl: `${base}/api/alpha/decisions`,
    auth: { authorization: `Bearer ${key}` },
    pid: gateway.child.pid!,
    stop: async () => {
      // The gateway writes its last figures on the way out: its data directory goes after it has exited.
      const exited = new Promise((resolve) => gateway.child.once('exit', resolve));
      gateway.child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The team path's requests a second as a share of SQLite's, from both gateways loaded in turn
 * (slots A B B A): the scenarios' own rounds are minutes apart, and between them this machine drifts
 * by more than the share's margin (SQLite's own medians moved 9,006 to 10,673 across three runs).
 */
async function pairedShare(sqlite: Scenario, team: Scenario, start: (scenario: Scenario) => ReturnType<typeof startGateway>): Promise<BenchRow[]> {
  const a = await start(team);
  const b = await start(sqlite);
  try {
    const side = (name: string, g: Awaited<ReturnType<typeof startGateway>>) => ({ name, url: g.gatewayUrl, auth: g.auth, pid: g.pid });
    const pairs = QUICK ? 4 : 12;
    const { ratios } = await pairedSlots(
      '(a) PostgreSQL + Redis and SQLite',
      side('PostgreSQL + Redis', a),
      side('SQLite', b),
      { a: team.gatewayBody, b: sqlite.gatewayBody },
      pairs,
    );
    const shares = ratios.map((r) => 100 * r.rps);
    const cpu = ratios.map((r) => r.cpu);
    return [
      row(
        `(a) on PostgreSQL + Redis: requests per second as a share of SQLite's, both loaded in turn (median of ${pairs} pairs of 3 s slots)`,
        `${fmt(median(shares), 0)}% (${range(shares, 0)})`,
        { text: '≥ 80%', met: median(shares) >= 80 },
      ),
      row(`(a) on PostgreSQL + Redis ÷ on SQLite: gateway CPU per request, the same pairs`, `${fmt(median(cpu), 3)} (${range(cpu, 3)})`),
    ];
  } finally {
    await Promise.all([a.stop(), b.stop()]);
  }
}

/** Stopped when the bench ends, however it ends. */
let postgresServer: { stop(): void } | null = null;
let redisServer: { close(): Promise<void> } | null = null;

/** Redis commands and Postgres transactions so far, as the servers count them (null where none is used). */
async function serverCounts(database: string | undefined, redis: string | undefined): Promise<{ redis: number | null; postgres: number | null }> {
  let redisCalls: number | null = null;
  if (redis) {
    const { Redis } = await import('ioredis');
    const client = new Redis(redis);
    try {
      const info = await client.info('commandstats');
      // Round trips: the script calls (the commands a script runs inside Redis are counted apart by Redis, and are not trips).
      redisCalls = [...info.matchAll(/^cmdstat_(\w+):calls=(\d+)/gm)]
        .filter((m) => m[1] === 'evalsha' || m[1] === 'eval')
        .reduce((n, m) => n + Number(m[2]), 0);
    } finally {
      client.disconnect();
    }
  }
  let transactions: number | null = null;
  if (database) {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: database });
    await client.connect();
    try {
      const row = (await client.query<{ n: string }>('SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = current_database()'))
        .rows[0];
      transactions = Number(row?.n ?? 0);
    } finally {
      await client.end();
    }
  }
  return { redis: redisCalls, postgres: transactions };
}

/**
 * The resident memory of a server nobody has asked anything: started with the default options (a
 * fresh data directory, so the simulated fleet is on and discovery probes the local servers), read
 * from /proc once /healthz answers and 5 s have passed. One process per start.
 */
async function idleRss(): Promise<number[]> {
  const figures: number[] = [];
  for (let start = 1; start <= IDLE_STARTS; start += 1) {
    process.stdout.write(`idle server: start ${start} of ${IDLE_STARTS}…\n`);
    const dataDir = mkdtempSync(join(tmpdir(), 'verdict-idle-'));
    const server = await startChild([cli, '--port', '0', '--data-dir', dataDir], { VERDICT_LOG_LEVEL: 'error', VERDICT_DRAIN_NOTICE_SECONDS: '0' });
    try {
      const base = /Verdict is serving at (\S+)/.exec(server.output)![1]!;
      for (;;) {
        const ok = await fetch(`${base}/healthz`).then(
          (r) => r.ok,
          () => false,
        );
        if (ok) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await new Promise((resolve) => setTimeout(resolve, IDLE_SETTLE_MS));
      figures.push(rssMiB(server.child.pid!));
    } finally {
      const exited = new Promise((resolve) => server.child.once('exit', resolve));
      server.child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  return figures;
}

/** The catalog the bench's gateways load: the mock upstream's providers and models. */
function benchCatalog(upstreamOrigin: string): string {
  const model = (id: string, vision = false) => ({
    id,
    name: id,
    created: 0,
    architecture: {
      input_modalities: vision ? ['text', 'image'] : ['text'],
      output_modalities: ['text'],
      modality: vision ? 'text+image->text' : 'text->text',
      instruct_type: null,
      tokenizer: null,
    },
    ...(vision ? { locates_objects: true } : {}),
  });
  const price = { prompt: '0.000001', completion: '0.000002' };
  return JSON.stringify({
    version: 1,
    providers: [
      { slug: 'bench', name: 'Bench', wire_format: 'decisions', base_url: `${upstreamOrigin}/api/v1`, local: true },
      { slug: 'mock', name: 'Mock chat', wire_format: 'openai', base_url: `${upstreamOrigin}/v1`, local: true },
      { slug: 'mockbox', name: 'Mock vision', wire_format: 'openai', base_url: `${upstreamOrigin}/box/v1`, local: true },
      { slug: 'mockanthropic', name: 'Mock Anthropic', wire_format: 'anthropic', base_url: `${upstreamOrigin}/anthropic/v1`, local: true },
    ],
    models: [model('bench/echo'), model('bench/chat'), model('bench/claude'), model('bench/vision', true)],
    endpoints: [
      { model_id: 'bench/echo', provider: 'bench', upstream_model: 'bench-echo', pricing: { prompt: '0.000001', completion: '0.000001' } },
      {
        model_id: 'bench/chat',
        provider: 'mock',
        upstream_model: 'bench-chat',
        pricing: price,
        supported_parameters: ['max_tokens', 'temperature', 'logprobs', 'top_logprobs'],
      },
      { model_id: 'bench/claude', provider: 'mockanthropic', upstream_model: 'claude-sonnet-4-5', pricing: { prompt: '0.000003', completion: '0.000015' } },
      { model_id: 'bench/vision', provider: 'mockbox', upstream_model: 'bench-vision', pricing: price, supported_parameters: ['max_tokens', 'temperature'] },
    ],
  });
}

/** The scenario's rounds: interleaved pairs at concurrency 1, then load at 50 each way (and the bare proxy's floor where asked). */
async function measureRounds(
  scenario: Scenario,
  upstreamPid: number,
  upstreamOrigin: string,
  calls: UpstreamCall[],
  gateway: { gatewayUrl: string; auth: Record<string, string>; pid: number },
): Promise<Round[]> {
  const { gatewayUrl, auth, pid } = gateway;
  const single = calls.length === 1 ? calls[0]! : null;
  const rounds: Round[] = [];
  for (let round = 1; round <= ROUNDS; round += 1) {
    process.stdout.write(`${scenario.name}: round ${round} of ${ROUNDS}, concurrency 1 (${Math.round(PAIRS * scenario.pairShare)} interleaved pairs)…\n`);
    const pairs = Math.round(PAIRS * scenario.pairShare);
    const pair = await interleavedLatency(
      upstreamOrigin,
      calls,
      gatewayUrl,
      auth,
      scenario.gatewayBody,
      pairs,
      Math.round((round === 1 ? 1000 : 200) * scenario.pairShare),
    );
    process.stdout.write(`${scenario.name}: round ${round} of ${ROUNDS}, concurrency 50 (${LOAD_SECONDS} s each way)…\n`);
    // Load straight to the upstream only where one request is one call; autocannon sends one body per request.
    const upstreamBefore = cpuMicros(upstreamPid);
    const direct50 = single ? await load(`${upstreamOrigin}${single.path}`, {}, single.body, 50, LOAD_SECONDS) : null;
    const upstreamCpu = direct50 ? (cpuMicros(upstreamPid) - upstreamBefore) / direct50.requests.total : null;
    const cpuBefore = cpuMicros(pid);
    const through50 = await load(gatewayUrl, auth, scenario.gatewayBody, 50, LOAD_SECONDS);
    const cpuAfter = cpuMicros(pid);
    const floor = scenario.floor && single ? await measureFloor(upstreamOrigin, single, scenario.gatewayBody, pairs, LOAD_SECONDS) : null;
    const portkey = scenario.floor && single ? await measurePortkey(upstreamOrigin, single, pairs, LOAD_SECONDS) : null;
    rounds.push({
      added50: ms(pair.through, 50) - ms(pair.direct, 50),
      added99: ms(pair.through, 99) - ms(pair.direct, 99),
      direct50: ms(pair.direct, 50),
      direct99: ms(pair.direct, 99),
      through50: ms(pair.through, 50),
      through99: ms(pair.through, 99),
      c50: {
        added50: direct50 ? through50.latency.p50 - direct50.latency.p50 : null,
        rps: through50.requests.average,
        directRps: direct50 ? direct50.requests.average : null,
        errors: through50.errors + through50.non2xx + through50.timeouts,
        cpu: (cpuAfter - cpuBefore) / through50.requests.total,
        upstreamCpu,
        floor,
        portkey,
      },
    });
  }
  return rounds;
}

async function main(): Promise<void> {
  // Planning is measured first, in this process as it started: after the load runs its heap holds
  // the load generator's results, and planning measured then came out two to five times slower.
  const plan = planBench();
  const capture = await captureBench();
  // Before the upstream and any load start, so that nothing else is running beside the idle servers.
  const idle = !ONLY || ONLY.includes('(idle)') ? await idleRss() : null;
  const upstream = await startChild([join(root, 'dist', 'bench', 'upstream.mjs')]);
  const upstreamOrigin = `http://127.0.0.1:${upstream.output.trim()}`;
  const catalog = benchCatalog(upstreamOrigin);
  try {
    const rows: ReturnType<typeof row>[] = [];
    const details: string[] = [];
    const chosen = scenarios().filter((s) => (!ONLY || ONLY.some((tag) => s.name.startsWith(tag))) && !(SMOKE && s.postgres));
    // A real PostgreSQL server (Debian's, else the build npm ci brought in), one database per gateway.
    const postgres = chosen.some((s) => s.postgres) ? await startPostgres() : null;
    postgresServer = postgres;
    const redis = chosen.some((s) => s.redis) ? await startRedis() : null;
    redisServer = redis;
    let databases = 0;
    if (AGAINST) {
      const start = async (scenario: Scenario, server: string) =>
        startGateway(
          catalog,
          scenario.postgres ? await postgres!.createDatabase(`bench_${(databases += 1)}`) : undefined,
          scenario.redis ? redis!.url : undefined,
          server,
        );
      rows.push(...(await compareBuilds(chosen, start, { here: cli, other: AGAINST }, QUICK ? 4 : 12)));
      publish({ root, argv: [], title: 'Gateway A/B', resultHeader: 'result: median (lowest–highest)', rows, detail: AB_DETAIL });
      return;
    }
    /** Medians of (a) on each backend, compared after both ran. */
    const backends = new Map<string, BackendFigures>();
    for (const scenario of chosen) {
      const database = scenario.postgres ? await postgres!.createDatabase(`bench_${(databases += 1)}`) : undefined;
      const { gatewayUrl, auth, pid, stop } = await startGateway(catalog, database, scenario.redis ? redis!.url : undefined);
      // What the load costs Redis and Postgres: commands and transactions per request, counted by the servers.
      const before = await serverCounts(database, scenario.redis ? redis!.url : undefined);
      const calls = await recordCalls(upstreamOrigin, gatewayUrl, auth, scenario.gatewayBody);
      const rounds = await measureRounds(scenario, upstream.child.pid!, upstreamOrigin, calls, { gatewayUrl, auth, pid });
      const summary = summarise(scenario, rounds, calls.length);
      if (summary.backend) backends.set(summary.backend.name, summary.backend.figures);
      rows.push(...summary.rows);
      const rss = peakRssMiB(pid);
      if (scenario.postgres) {
        // Counted by the servers over the whole scenario, divided by the Decisions requests the gateway answered (its own /metrics).
        const after = await serverCounts(database, scenario.redis ? redis!.url : undefined);
        rows.push(...trafficRows(scenario, before, after, await decisionsAnswered(gatewayUrl)));
      }
      await stop();
      rows.push(rssRow(scenario, rss, ROUNDS));
      details.push(
        `${scenario.name}: ${calls.length} upstream call${calls.length === 1 ? '' : 's'} of ${calls.map((c) => `${fmt(c.body.length / 1024, 1)} KiB`).join(', ')} per request. Concurrency 1 per round (direct / through, ms): ${rounds.map((r) => `p50 ${fmt(r.direct50, 3)} / ${fmt(r.through50, 3)}, p99 ${fmt(r.direct99, 3)} / ${fmt(r.through99, 3)}`).join('; ')}.`,
      );
    }
    rows.push(...backendRows(backends));
    const onSqlite = chosen.find((s) => s.name.startsWith('(a)') && !s.postgres);
    const onTeam = chosen.find((s) => s.redis);
    if (onSqlite && onTeam)
      rows.push(
        ...(await pairedShare(onSqlite, onTeam, async (s) =>
          startGateway(catalog, s.postgres ? await postgres!.createDatabase(`bench_${(databases += 1)}`) : undefined, s.redis ? redis!.url : undefined),
        )),
      );
    rows.push(...idleRows(idle));
    if (!ONLY || ONLY.includes('(flood)')) rows.push(...(await floodRows(() => startGateway(catalog))));
    rows.push(
      row('plan for 10,000 endpoints, load balancing (median)', `${fmt(plan.loadBalance, 3)} ms`, below(1, ' ms', plan.loadBalance)),
      row('plan for 10,000 endpoints, sort + zdr + latency preference (median)', `${fmt(plan.sorted, 3)} ms`, below(1, ' ms', plan.sorted)),
      row('capture: CPU per request on its path, no capture rules (median)', `${fmt(capture.none, 2)} µs`, below(10, ' µs', capture.none)),
      row('capture: CPU per request on its path, 10 rules, none matching (median)', `${fmt(capture.noMatch, 2)} µs`, below(10, ' µs', capture.noMatch)),
      row('capture: CPU per request on its path, a rule takes it (median)', `${fmt(capture.match, 2)} µs`, below(50, ' µs', capture.match)),
      row('capture: batched write off the path, per captured request (SQLite)', `${fmt(capture.writePerCapture, 1)} µs`),
    );
    const detail = [
      `${ROUNDS} rounds per scenario, each: ${PAIRS} interleaved pairs at concurrency 1 (fewer for the heavy scenarios: (b) a quarter, (c) half, (d) a tenth) (the work done directly, then the same request through the gateway), then ${LOAD_SECONDS} s of load at concurrency 50 direct (where one request is one upstream call) and ${LOAD_SECONDS} s through the gateway. Added latency is the gateway's percentile minus the direct one from the same round. The direct work is what the gateway sent the upstream for the same request, recorded by the upstream: the same bodies, the first call and then the rest at once. Targets are the issue's and are checked on (a) and (e); (b)–(d) are reported as measured.`,
      ...details,
      `Beside (a), in each round and measured the same way: a bare Node proxy doing only that path's HTTP and SSE work (electron/bench/node-floor.ts), and Portkey's open-source gateway (@portkey-ai/gateway, the version package.json pins, started as its npx command starts it) sending the same chat completion to the same upstream as its OpenAI custom host and streaming the events back. Portkey only proxies that call, where Verdict also builds it from a Decisions request and reads the answer out of it. On Node, Portkey 1.15.2 fails every streamed completion with "TypeError: immutable" (it adds headers to fetch's response; Portkey-AI/gateway#1389), so the bench loads electron/bench/portkey-preload.mjs into it, which hands Portkey each upstream response as a new Response with the same status, headers and body stream.`,
      `Load generator (autocannon), gateway and upstream share this machine's two cores; the direct runs have the same handicap. CPU time is the gateway process's user + system time over its load run, divided by the requests it answered. Each scenario has a gateway process (and data directory) of its own, so its peak RSS and CPU are its own.`,
    ].join('\n\n');
    publish({ root, argv: process.argv.slice(2), title: 'Gateway overhead', resultHeader: 'result: median of the rounds (lowest–highest)', rows, detail });
  } finally {
    upstream.child.kill('SIGTERM');
    postgresServer?.stop();
    await redisServer?.close();
  }
}

await main();
