import { GENERIC } from '../core/providers/capabilities';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { startPostgres } from '../test-support/postgres';
import { startRedis } from '../test-support/redis';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import * as hdr from 'hdr-histogram-js';
import { PNG } from 'pngjs';
import { Pool } from 'undici';
import { planRoute, type Candidate } from '../core/routing/plan';
import type { CatalogEndpoint } from '../core/catalog/types';
import { cpuMicros, peakRssMiB, rssMiB } from './proc';
import { atMost, below, fmt, publish, row } from './report';

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
// VERDICT_BENCH_ONLY=a,e measures only those scenarios (letters as in their names), to try a change; `idle` is the idle server's RSS.
const ONLY = process.env['VERDICT_BENCH_ONLY']?.split(',').map((l) => `(${l.trim()})`);
// VERDICT_BENCH_SMOKE=1 (npm run bench:smoke) leaves out the scenarios on PostgreSQL and Redis: a smoke round checks that the bench runs.
const SMOKE = process.env['VERDICT_BENCH_SMOKE'] === '1';
// VERDICT_BENCH_PROFILE=DIR writes a V8 CPU profile of each gateway process there (node --cpu-prof), to see where its time goes.
const PROFILE_DIR = process.env['VERDICT_BENCH_PROFILE'];
/** About 1 KB of state, as a short customer message with context. */
const STATE_1KB =
  'Order 1042 was promised for Monday. The customer wrote on Wednesday: the parcel came two days late, the box was dented and one of the three mugs inside was cracked. '
    .repeat(6)
    .slice(0, 1024);
/** About 5,000 tokens of state (a support thread), at about four characters a token. */
const STATE_5K_TOKENS = Array.from(
  { length: 200 },
  (_, i) => `Message ${i + 1}: the customer asks again about order ${1000 + i}, which shipped late and arrived with a cracked mug. `,
)
  .join('')
  .slice(0, 20_000);
const QUESTION = 'Did the parcel arrive late?';
const SIX = Object.fromEntries(
  ['late', 'damaged', 'refund', 'angry', 'repeat', 'resolved'].map((name) => [name, { type: 'noul', instructions: `Is the thread about something ${name}?` }]),
);

/** A 1000 × 1000 PNG with gradients, shapes and grain, so it compresses like a photo rather than a flat fill. */
function photoLikePng(): string {
  const png = new PNG({ width: 1000, height: 1000 });
  let seed = 7;
  const grain = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % 24) - 12;
  for (let y = 0; y < 1000; y += 1) {
    for (let x = 0; x < 1000; x += 1) {
      const i = (y * 1000 + x) * 4;
      const inBox = x > 180 && x < 550 && y > 210 && y < 640;
      png.data[i] = Math.max(0, Math.min(255, (inBox ? 200 : x / 4) + grain()));
      png.data[i + 1] = Math.max(0, Math.min(255, (inBox ? 60 : y / 4) + grain()));
      png.data[i + 2] = Math.max(0, Math.min(255, 128 + grain()));
      png.data[i + 3] = 255;
    }
  }
  return `data:image/png;base64,${PNG.sync.write(png).toString('base64')}`;
}

interface Scenario {
  name: string;
  /** What a client sends through the gateway. */
  gatewayBody: string;
  /** Whether the issue's targets apply (they are set for (a) and (e); the others are reported as measured). */
  targets: boolean;
  /** Share of the interleaved pairs to run: the heavy scenarios take fewer (their percentiles settle sooner). */
  pairShare: number;
  /** Whether to measure a bare Node proxy doing the same HTTP and SSE work beside it (path (a)). */
  floor?: boolean;
  /** The gateway's data on a PostgreSQL server instead of its data directory's SQLite file. */
  postgres?: boolean;
  /** Limits shared on a Redis server, and the requests sent on a key with a rate and a credit limit (so each is admitted there). */
  redis?: boolean;
  /** The rows' tag, when not the letter in its name. */
  tag?: string;
}

function scenarios(): Scenario[] {
  const image = photoLikePng();
  return [
    {
      name: '(a) OpenAI-format streaming with logprobs, 1 KB state, one noul question',
      gatewayBody: JSON.stringify({ model: 'bench/chat', state: STATE_1KB, questions: { late: { type: 'noul', instructions: QUESTION } } }),
      targets: true,
      floor: true,
      pairShare: 1,
    },
    {
      name: '(a) on PostgreSQL: the same request, with keys, spend and figures on a PostgreSQL server on this machine',
      gatewayBody: JSON.stringify({ model: 'bench/chat', state: STATE_1KB, questions: { late: { type: 'noul', instructions: QUESTION } } }),
      targets: false,
      pairShare: 1,
      postgres: true,
      tag: '(a) on PostgreSQL',
    },
    {
      name: '(a) on PostgreSQL + Redis: the same request on a key with a rate and a credit limit, admitted on Redis',
      gatewayBody: JSON.stringify({ model: 'bench/chat', state: STATE_1KB, questions: { late: { type: 'noul', instructions: QUESTION } } }),
      targets: false,
      pairShare: 1,
      postgres: true,
      redis: true,
      tag: '(a) on PostgreSQL + Redis',
    },
    {
      name: '(b) six noul questions on a 5,000-token state, first then the rest',
      gatewayBody: JSON.stringify({ model: 'bench/chat', state: STATE_5K_TOKENS, questions: SIX }),
      targets: false,
      pairShare: 0.25,
    },
    {
      name: '(c) Anthropic Messages with stated probabilities, 1 KB state',
      gatewayBody: JSON.stringify({ model: 'bench/claude', state: STATE_1KB, questions: { late: { type: 'noul', instructions: QUESTION } } }),
      targets: false,
      pairShare: 0.5,
    },
    {
      name: `(d) a box question on a 1-megapixel PNG (${Math.round((image.length * 3) / 4 / 1024)} KiB)`,
      gatewayBody: JSON.stringify({
        model: 'bench/vision',
        state: [{ type: 'image_url', image_url: { url: image } }],
        questions: { parcel: { type: 'box', instructions: 'the parcel' } },
      }),
      targets: false,
      pairShare: 0.1,
    },
    {
      name: '(e) native Decisions passthrough, one-line state',
      gatewayBody: JSON.stringify({ model: 'bench/echo', state: 'The parcel came late.', questions: { q: { type: 'noul', instructions: 'Was it late?' } } }),
      targets: true,
      pairShare: 1,
    },
  ];
}

/** A percentile of a histogram recorded in µs, in ms. */
const ms = (h: hdr.Histogram, p: number) => h.getValueAtPercentile(p) / 1000;

/** What the bare proxy measured in one round: the floor under the gateway on this machine. */
interface Floor {
  /** CPU per request at concurrency 50, µs. */
  cpu: number;
  rps: number;
  /** Added latency at concurrency 1 (its p50 and p99 minus the direct ones of the same pairs), ms. */
  added50: number;
  added99: number;
  rssMiB: number;
}

/**
 * A bare Node proxy (node-floor.ts) sending the recorded upstream call for each request, measured
 * as the gateway is: interleaved pairs at concurrency 1, then load at concurrency 50.
 */
async function measureFloor(upstreamOrigin: string, call: UpstreamCall, clientBody: string, pairs: number): Promise<Floor> {
  const dir = mkdtempSync(join(tmpdir(), 'verdict-floor-'));
  const bodyFile = join(dir, 'body.json');
  writeFileSync(bodyFile, call.body);
  const floor = await startChild([join(root, 'dist', 'bench', 'node-floor.mjs'), `${upstreamOrigin}${call.path}`, bodyFile]);
  try {
    const url = `http://127.0.0.1:${floor.output.trim()}/`;
    const pair = await interleavedLatency(upstreamOrigin, [call], url, {}, clientBody, pairs, 200);
    await load(url, {}, clientBody, 50, 1);
    const before = cpuMicros(floor.child.pid!);
    const result = await load(url, {}, clientBody, 50, LOAD_SECONDS);
    if (result.non2xx > 0 || result.errors > 0) throw new Error(`the bare proxy failed ${result.non2xx + result.errors} requests`);
    return {
      cpu: (cpuMicros(floor.child.pid!) - before) / result.requests.total,
      rps: result.requests.average,
      added50: ms(pair.through, 50) - ms(pair.direct, 50),
      added99: ms(pair.through, 99) - ms(pair.direct, 99),
      rssMiB: peakRssMiB(floor.child.pid!),
    };
  } finally {
    const exited = new Promise((resolve) => floor.child.once('exit', resolve));
    floor.child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One upstream call as the gateway made it. */
interface UpstreamCall {
  path: string;
  body: string;
}

function startChild(command: string[], env: Record<string, string> = {}): Promise<{ child: ChildProcess; output: string }> {
  const child = spawn(process.execPath, command, { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
  let output = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (/\n/.test(output) && (!command[0]!.endsWith('cli.mjs') || output.includes('Public API'))) resolve({ child, output });
    });
    child.once('exit', (code) => reject(new Error(`${command[0]} exited with ${code}`)));
  });
}

interface Pair {
  direct: hdr.Histogram;
  through: hdr.Histogram;
}

/**
 * Concurrency 1, interleaved: the direct work, then the same request through the gateway, and
 * again. Both see the machine in the same state, so the difference is the gateway's and not a
 * change in the weather between two separate runs. The direct work is the recorded calls: the
 * first, then the rest at once.
 */
async function interleavedLatency(
  upstreamOrigin: string,
  calls: UpstreamCall[],
  gatewayUrl: string,
  headers: Record<string, string>,
  gatewayBody: string,
  pairs: number,
  warmup: number,
): Promise<Pair> {
  const build = () => hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 10_000_000, numberOfSignificantValueDigits: 3 });
  const result: Pair = { direct: build(), through: build() };
  const upstream = new Pool(upstreamOrigin, { connections: Math.max(1, calls.length - 1) });
  const gatewayTarget = new URL(gatewayUrl);
  const gateway = new Pool(gatewayTarget.origin, { connections: 1 });
  const post = async (pool: Pool, path: string, body: string, extra: Record<string, string>) => {
    const response = await pool.request({ method: 'POST', path, headers: { 'content-type': 'application/json', ...extra }, body });
    await response.body.text();
    if (response.statusCode !== 200) throw new Error(`status ${response.statusCode} from ${path}`);
  };
  const [first, ...rest] = calls;
  const direct = async () => {
    await post(upstream, first!.path, first!.body, {});
    if (rest.length > 0) await Promise.all(rest.map((c) => post(upstream, c.path, c.body, {})));
  };
  const timed = async (work: () => Promise<void>) => {
    const start = performance.now();
    await work();
    return performance.now() - start;
  };
  for (let i = 0; i < warmup + pairs; i += 1) {
    const d = await timed(direct);
    const t = await timed(() => post(gateway, gatewayTarget.pathname, gatewayBody, headers));
    if (i < warmup) continue;
    result.direct.recordValue(Math.round(d * 1000));
    result.through.recordValue(Math.round(t * 1000));
  }
  await Promise.all([upstream.close(), gateway.close()]);
  return result;
}

/** What the gateway sends the upstream for one request, recorded by the upstream. */
async function recordCalls(upstreamOrigin: string, gatewayUrl: string, headers: Record<string, string>, gatewayBody: string): Promise<UpstreamCall[]> {
  // Requests of the last load run may still be on their way upstream: wait until a quarter second passes without one.
  for (;;) {
    await fetch(`${upstreamOrigin}/__record`, { method: 'POST' });
    await new Promise((resolve) => setTimeout(resolve, 250));
    const late = (await (await fetch(`${upstreamOrigin}/__record`)).json()) as UpstreamCall[];
    if (late.length === 0) break;
  }
  await fetch(`${upstreamOrigin}/__record`, { method: 'POST' });
  const response = await fetch(gatewayUrl, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: gatewayBody });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`the gateway answered ${response.status}: ${text}`);
  const calls = (await (await fetch(`${upstreamOrigin}/__record`)).json()) as UpstreamCall[];
  if (calls.length === 0) throw new Error('the gateway made no upstream call');
  return calls;
}

function load(url: string, headers: Record<string, string>, body: string, connections: number, seconds: number): Promise<autocannon.Result> {
  return autocannon({ url, method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body, connections, duration: seconds, pipelining: 1 });
}

function planBench(): { loadBalance: number; sorted: number } {
  const provider = (i: number) => ({
    slug: `p${i}`,
    name: `P${i}`,
    wire_format: 'openai' as const,
    base_url: 'http://127.0.0.1:9/v1',
    local: false,
    data_policy: { zdr: i % 3 === 0, collects_data: i % 2 === 0 },
    source: 'file' as const,
    simulated: false,
  });
  const model = {
    id: 'bench/many',
    name: 'Many',
    created: 0,
    description: '',
    architecture: { input_modalities: ['text'], output_modalities: ['text'], modality: null, instruct_type: null, tokenizer: null },
    distillable: null,
    locates_objects: false,
    box_format: null,
    source: 'file' as const,
  };
  const candidates: Candidate[] = Array.from({ length: 10_000 }, (_, i) => {
    const price = 1e-7 * (1 + (i % 97));
    const endpoint: CatalogEndpoint = {
      id: `p${i}:p${i}:bench/many`,
      model,
      provider: provider(i),
      tag: `p${i}`,
      upstreamModel: 'many',
      wire: 'openai',
      host: null,
      capabilities: GENERIC,
      sources: { pricing: 'catalog file', context_length: 'catalog file', max_completion_tokens: null, modalities: null },
      contextLength: 8192,
      maxCompletionTokens: null,
      maxPromptTokens: null,
      pricing: { prompt: String(price), completion: String(price * 2) },
      prices: { prompt: price, completion: price * 2, request: null, image: null, cacheRead: null, cacheWrite: null },
      quantization: 'fp8',
      supportedParameters: ['logprobs'],
      supportsImplicitCaching: false,
      source: 'file',
    };
    return {
      endpoint,
      latency: { p50: (i % 50) / 100, p75: 1, p90: 1, p99: 2 },
      throughput: null,
      successRate1d: 0.99,
      attempts1d: 100,
      recentFaultAt: null,
      paused: false,
      cooldownUntil: null,
      lastFailureAt: null,
    };
  });
  const needs = { parameters: ['logprobs'], promptTokens: 500, completionTokens: 1, images: 0 };
  const time = (preferences: Parameters<typeof planRoute>[0]['preferences']) => {
    const samples: number[] = [];
    for (let i = 0; i < 120; i += 1) {
      const start = performance.now();
      planRoute({ modelId: 'bench/many', candidates, preferences, account: { only: [], ignore: [], zdr: false }, needs, now: Date.now(), random: Math.random });
      if (i >= 20) samples.push(performance.now() - start);
    }
    samples.sort((a, b) => a - b);
    return samples[Math.floor(samples.length / 2)]!;
  };
  return { loadBalance: time(undefined), sorted: time({ sort: 'latency', zdr: true, preferred_max_latency: 0.3 }) };
}

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
): Promise<{ gatewayUrl: string; auth: Record<string, string>; pid: number; stop: () => Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'verdict-bench-'));
  writeFileSync(join(dataDir, 'catalog.json'), catalog);
  const profile = PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [];
  const gateway = await startChild([...profile, cli, '--port', '0', '--data-dir', dataDir], {
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

/** Idle server RSS: starts measured, each in a fresh data directory, as `npm run serve` starts it with its defaults. */
const IDLE_STARTS = QUICK ? 1 : 3;
/** How long a started server is left alone before its memory is read. */
const IDLE_SETTLE_MS = 5_000;

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

async function main(): Promise<void> {
  // Planning is measured first, in this process as it started: after the load runs its heap holds
  // the load generator's results, and planning measured then came out two to five times slower.
  const plan = planBench();
  // Before the upstream and any load start, so that nothing else is running beside the idle servers.
  const idle = !ONLY || ONLY.includes('(idle)') ? await idleRss() : null;
  const upstream = await startChild([join(root, 'dist', 'bench', 'upstream.mjs')]);
  const upstreamOrigin = `http://127.0.0.1:${upstream.output.trim()}`;
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
  const catalog = JSON.stringify({
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
    /** Medians of (a) on each backend, compared after both ran. */
    const backends = new Map<string, { added50: number; added99: number; cpu: number; rps: number }>();
    for (const scenario of chosen) {
      const database = scenario.postgres ? await postgres!.createDatabase(`bench_${(databases += 1)}`) : undefined;
      const { gatewayUrl, auth, pid, stop } = await startGateway(catalog, database, scenario.redis ? redis!.url : undefined);
      // What the load costs Redis and Postgres: commands and transactions per request, counted by the servers.
      const before = await serverCounts(database, scenario.redis ? redis!.url : undefined);
      const calls = await recordCalls(upstreamOrigin, gatewayUrl, auth, scenario.gatewayBody);
      const single = calls.length === 1 ? calls[0]! : null;
      const rounds: {
        added50: number;
        added99: number;
        direct50: number;
        direct99: number;
        through50: number;
        through99: number;
        c50: { added50: number | null; rps: number; directRps: number | null; errors: number; cpu: number; upstreamCpu: number | null; floor: Floor | null };
      }[] = [];
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
        const upstreamBefore = cpuMicros(upstream.child.pid!);
        const direct50 = single ? await load(`${upstreamOrigin}${single.path}`, {}, single.body, 50, LOAD_SECONDS) : null;
        const upstreamCpu = direct50 ? (cpuMicros(upstream.child.pid!) - upstreamBefore) / direct50.requests.total : null;
        const cpuBefore = cpuMicros(pid);
        const through50 = await load(gatewayUrl, auth, scenario.gatewayBody, 50, LOAD_SECONDS);
        const cpuAfter = cpuMicros(pid);
        const floor = scenario.floor && single ? await measureFloor(upstreamOrigin, single, scenario.gatewayBody, pairs) : null;
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
          },
        });
      }
      /** The median of the rounds, with the range beside it. */
      const spread = (values: number[], digits: number, unit: string) => {
        const sorted = [...values].sort((a, b) => a - b);
        const median = sorted[Math.floor(sorted.length / 2)]!;
        return `${fmt(median, digits)}${unit} (${fmt(sorted[0]!, digits)}–${fmt(sorted.at(-1)!, digits)})`;
      };
      const pick = <T>(f: (r: (typeof rounds)[number]) => T) => rounds.map(f);
      const errors = pick((r) => r.c50.errors).reduce((a, b) => a + b, 0);
      const mid = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
      const rps = pick((r) => r.c50.rps);
      const goal = <T>(make: () => T) => (scenario.targets ? make() : undefined);
      const tag = scenario.tag ?? scenario.name.slice(0, 3);
      if (scenario.name.startsWith('(a)'))
        backends.set(scenario.redis ? 'postgres+redis' : scenario.postgres ? 'postgres' : 'sqlite', {
          added50: mid(pick((r) => r.added50)),
          added99: mid(pick((r) => r.added99)),
          cpu: mid(pick((r) => r.c50.cpu)),
          rps: mid(rps),
        });
      const added50c50 = pick((r) => r.c50.added50).filter((v): v is number => v !== null);
      const directRps = pick((r) => r.c50.directRps).filter((v): v is number => v !== null);
      rows.push(
        row(
          `${tag} added latency p50, concurrency 1`,
          spread(
            pick((r) => r.added50),
            3,
            ' ms',
          ),
          // The lean issue's target for (a); (e) keeps the earlier 0.3 ms.
          goal(() => atMost(tag === '(a)' ? 0.25 : 0.3, ' ms', mid(pick((r) => r.added50)))),
        ),
        row(
          `${tag} added latency p99, concurrency 1`,
          spread(
            pick((r) => r.added99),
            3,
            ' ms',
          ),
          goal(() => atMost(2, ' ms', mid(pick((r) => r.added99)))),
        ),
        ...(added50c50.length > 0
          ? [
              row(
                `${tag} added latency p50, concurrency 50`,
                spread(added50c50, 1, ' ms'),
                goal(() => atMost(5, ' ms', mid(added50c50))),
              ),
            ]
          : []),
        row(
          `${tag} requests per second through the gateway, concurrency 50`,
          `${spread(rps, 0, '')}; errors: ${errors}`,
          goal(() => ({ text: '≥ 5,000 with 0 errors', met: mid(rps) >= 5000 && errors === 0 })),
        ),
        ...(directRps.length > 0 ? [row(`${tag} requests per second direct to the upstream, concurrency 50`, spread(directRps, 0, ''))] : []),
        row(
          `${tag} gateway CPU time per request, concurrency 50`,
          spread(
            pick((r) => r.c50.cpu),
            0,
            ' µs',
          ),
          // (e), the native pass-through: 50 µs (the lean issue); (a) is held to its work above the bare proxy below.
          goal(() => atMost(tag === '(e)' ? 50 : 150, ' µs', mid(pick((r) => r.c50.cpu)))),
        ),
      );
      const upstreamCpu = pick((r) => r.c50.upstreamCpu).filter((v): v is number => v !== null);
      if (upstreamCpu.length > 0) {
        // A yardstick for this machine: the mock upstream's own CPU per request, and the gateway's in units of it.
        rows.push(
          row(`${tag} upstream mock CPU time per request, direct, concurrency 50`, spread(upstreamCpu, 0, ' µs')),
          row(
            `${tag} gateway CPU per request ÷ the mock's (the issue's machine: 150 ÷ 83 = 1.8 is the target, 428 ÷ 83 = 5.2 was its start)`,
            spread(
              rounds.filter((r) => r.c50.upstreamCpu).map((r) => r.c50.cpu / r.c50.upstreamCpu!),
              1,
              '×',
            ),
          ),
        );
      }
      const floors = pick((r) => r.c50.floor).filter((v): v is Floor => v !== null);
      if (floors.length > 0) {
        // The floor, measured as the gateway is and beside each target: what Node and undici alone cost here.
        const bare = `${tag} a bare Node proxy doing only the HTTP and SSE work of this path (electron/bench/node-floor.ts)`;
        rows.push(
          row(
            `${bare}: added latency p50, concurrency 1`,
            spread(
              floors.map((f) => f.added50),
              3,
              ' ms',
            ),
          ),
          row(
            `${bare}: added latency p99, concurrency 1`,
            spread(
              floors.map((f) => f.added99),
              3,
              ' ms',
            ),
          ),
          row(
            `${bare}: requests per second, concurrency 50`,
            spread(
              floors.map((f) => f.rps),
              0,
              '',
            ),
          ),
          row(
            `${bare}: CPU per request, concurrency 50`,
            spread(
              floors.map((f) => f.cpu),
              0,
              ' µs',
            ),
          ),
          row(`${bare}: peak RSS`, `${fmt(Math.max(...floors.map((f) => f.rssMiB)), 0)} MiB`),
          row(
            `${tag} the gateway's own work above that floor, per request`,
            spread(
              rounds.filter((r) => r.c50.floor !== null).map((r) => r.c50.cpu - r.c50.floor!.cpu),
              0,
              ' µs',
            ),
            goal(() => atMost(25, ' µs', mid(rounds.filter((r) => r.c50.floor !== null).map((r) => r.c50.cpu - r.c50.floor!.cpu)))),
          ),
        );
      }
      if (calls.length > 1)
        rows.push(
          row(
            `${tag} gateway CPU time per upstream call, concurrency 50`,
            spread(
              pick((r) => r.c50.cpu / calls.length),
              0,
              ' µs',
            ),
          ),
        );
      const rss = peakRssMiB(pid);
      if (scenario.postgres) {
        // Counted by the servers over the whole scenario, divided by the Decisions requests the gateway answered (its own /metrics);
        // a key's first request also seeds its spend, once: the figure is per request to two places.
        const after = await serverCounts(database, scenario.redis ? redis!.url : undefined);
        const answered = await decisionsAnswered(gatewayUrl);
        if (after.redis !== null && before.redis !== null)
          rows.push(
            row(
              `${tag} Redis round trips per request (the admission awaited, the settling sent after)`,
              fmt((after.redis - before.redis) / answered, 2),
              atMost(2, '', Number(((after.redis - before.redis) / answered).toFixed(2))),
            ),
          );
        if (after.postgres !== null && before.postgres !== null)
          rows.push(row(`${tag} Postgres transactions per request (charges of a turn in one)`, fmt((after.postgres - before.postgres) / answered, 2)));
      }
      await stop();
      // The lean issue's ceilings: (a) 140 MiB at concurrency 50, (b) 180, (d) 300 on a 1-megapixel image; (e) keeps 150.
      const rssCeiling: Record<string, number> = { '(a)': 140, '(b)': 180, '(d)': 300, '(e)': 150 };
      rows.push(
        row(
          `${tag} gateway peak RSS (a gateway process per scenario, over its ${ROUNDS} rounds)`,
          `${fmt(rss, 0)} MiB`,
          rssCeiling[tag] !== undefined ? atMost(rssCeiling[tag], ' MiB', rss) : undefined,
        ),
      );
      details.push(
        `${scenario.name}: ${calls.length} upstream call${calls.length === 1 ? '' : 's'} of ${calls.map((c) => `${fmt(c.body.length / 1024, 1)} KiB`).join(', ')} per request. Concurrency 1 per round (direct / through, ms): ${rounds.map((r) => `p50 ${fmt(r.direct50, 3)} / ${fmt(r.through50, 3)}, p99 ${fmt(r.direct99, 3)} / ${fmt(r.through99, 3)}`).join('; ')}.`,
      );
    }
    const onSqlite = backends.get('sqlite');
    const onPostgres = backends.get('postgres');
    if (onSqlite && onPostgres) {
      // What keeping the data on PostgreSQL adds to path (a): spend and figures batched, one awaited group commit per batch window.
      const added = onPostgres.added50 - onSqlite.added50;
      const cpu = onPostgres.cpu - onSqlite.cpu;
      rows.push(
        row('(a) on PostgreSQL minus on SQLite: added latency p50, concurrency 1', `${added >= 0 ? '+' : ''}${fmt(added, 3)} ms`, atMost(0.3, ' ms', added)),
        row(
          '(a) on PostgreSQL minus on SQLite: gateway CPU time per request, concurrency 50',
          `${cpu >= 0 ? '+' : ''}${fmt(cpu, 0)} µs`,
          atMost(60, ' µs', cpu),
        ),
      );
    }
    const onTeam = backends.get('postgres+redis');
    if (onSqlite && onTeam) {
      // A team's instance: data on Postgres, a key with limits admitted on Redis (one awaited round trip, the settling sent after).
      const signed = (v: number, digits: number, unit: string) => `${v >= 0 ? '+' : ''}${fmt(v, digits)}${unit}`;
      const vs = '(a) on PostgreSQL + Redis, a key with limits, minus on SQLite';
      rows.push(
        row(
          `${vs}: added latency p50, concurrency 1`,
          signed(onTeam.added50 - onSqlite.added50, 3, ' ms'),
          atMost(0.5, ' ms', onTeam.added50 - onSqlite.added50),
        ),
        row(
          `${vs}: added latency p99, concurrency 1`,
          signed(onTeam.added99 - onSqlite.added99, 3, ' ms'),
          atMost(3, ' ms', onTeam.added99 - onSqlite.added99),
        ),
        row(`${vs}: gateway CPU time per request, concurrency 50`, signed(onTeam.cpu - onSqlite.cpu, 0, ' µs'), atMost(100, ' µs', onTeam.cpu - onSqlite.cpu)),
        row(`(a) on PostgreSQL + Redis: requests per second as a share of SQLite's`, `${fmt((100 * onTeam.rps) / onSqlite.rps, 0)}%`, {
          text: '≥ 80%',
          met: onTeam.rps >= 0.8 * onSqlite.rps,
        }),
      );
    }
    if (idle) {
      const sorted = [...idle].sort((a, b) => a - b);
      const median = sorted[Math.floor(sorted.length / 2)]!;
      rows.push(
        row(
          `idle server after start (npm run serve's defaults, fresh data directory, /healthz answered and ${IDLE_SETTLE_MS / 1000} s later): RSS, median of ${IDLE_STARTS} starts`,
          `${fmt(median, 1)} MiB (${fmt(sorted[0]!, 1)}–${fmt(sorted.at(-1)!, 1)})`,
          atMost(90, ' MiB', median),
        ),
      );
    }
    rows.push(
      row('plan for 10,000 endpoints, load balancing (median)', `${fmt(plan.loadBalance, 3)} ms`, below(1, ' ms', plan.loadBalance)),
      row('plan for 10,000 endpoints, sort + zdr + latency preference (median)', `${fmt(plan.sorted, 3)} ms`, below(1, ' ms', plan.sorted)),
    );
    const detail = [
      `${ROUNDS} rounds per scenario, each: ${PAIRS} interleaved pairs at concurrency 1 (fewer for the heavy scenarios: (b) a quarter, (c) half, (d) a tenth) (the work done directly, then the same request through the gateway), then ${LOAD_SECONDS} s of load at concurrency 50 direct (where one request is one upstream call) and ${LOAD_SECONDS} s through the gateway. Added latency is the gateway's percentile minus the direct one from the same round. The direct work is what the gateway sent the upstream for the same request, recorded by the upstream: the same bodies, the first call and then the rest at once. Targets are the issue's and are checked on (a) and (e); (b)–(d) are reported as measured.`,
      ...details,
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
