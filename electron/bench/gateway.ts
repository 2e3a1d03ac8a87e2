import { GENERIC } from '../core/providers/capabilities';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import * as hdr from 'hdr-histogram-js';
import { Pool } from 'undici';
import { planRoute, type Candidate } from '../core/routing/plan';
import type { CatalogEndpoint } from '../core/catalog/types';
import { cpuMicros, peakRssMiB } from './proc';
import { atMost, below, fmt, publish, row } from './report';

/**
 * Gateway overhead on the paths users take, each measured against the same work done directly in
 * the same run, with an upstream on loopback that answers at once:
 * (a) a Decisions noul question on a 1 KB state, turned into an OpenAI-format streaming chat call
 *     with logprobs and answered from top_logprobs (what every cloud provider but a native one gets);
 * (e) the native Decisions passthrough (a provider that speaks this API itself).
 */
const root = join(import.meta.dirname, '..', '..');
const cli = join(root, 'dist', 'server', 'cli.mjs');
// VERDICT_BENCH_QUICK=1 runs one short round, to try a change; the figures worth quoting come from the full run.
const QUICK = process.env['VERDICT_BENCH_QUICK'] === '1';
const ROUNDS = QUICK ? 1 : 3;
const PAIRS = QUICK ? 500 : 4000;
const LOAD_SECONDS = QUICK ? 3 : 8;
/** About 1 KB of state, as a short customer message with context. */
const STATE_1KB = ('Order 1042 was promised for Monday. The customer wrote on Wednesday: the parcel came two days late, the box was dented and one of the three mugs inside was cracked. ').repeat(6).slice(0, 1024);
const QUESTION = 'Did the parcel arrive late?';

interface Scenario {
  name: string;
  /** What a client sends through the gateway. */
  gatewayBody: string;
  /** The same work sent straight to the upstream (what the gateway sends it). */
  directPath: string;
  directBody: string;
}

const SCENARIOS: Scenario[] = [
  {
    name: '(a) OpenAI-format streaming with logprobs, 1 KB state, one noul question',
    gatewayBody: JSON.stringify({ model: 'bench/chat', state: STATE_1KB, questions: { late: { type: 'noul', instructions: QUESTION } } }),
    directPath: '/v1/chat/completions',
    directBody: JSON.stringify({
      model: 'bench-chat',
      messages: [
        { role: 'system', content: 'You judge content. The user gives the content first, then one question. Reply with exactly one of the labels the question offers and nothing else.' },
        { role: 'user', content: `${STATE_1KB}\n\nQuestion: ${QUESTION}\nAnswer Yes or No.` },
      ],
      stream: true,
      max_tokens: 1,
      stream_options: { include_usage: true },
      temperature: 0,
      logprobs: true,
      top_logprobs: 20,
    }),
  },
  {
    name: '(e) native Decisions passthrough, one-line state',
    gatewayBody: JSON.stringify({ model: 'bench/echo', state: 'The parcel came late.', questions: { q: { type: 'noul', instructions: 'Was it late?' } } }),
    directPath: '/api/alpha/decisions',
    directBody: JSON.stringify({ model: 'bench-echo', state: 'The parcel came late.', questions: { q: { type: 'noul', instructions: 'Was it late?' } } }),
  },
];

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
 * Concurrency 1, interleaved: a direct call, then the same call through the gateway, and again.
 * Both see the machine in the same state, so the difference is the gateway's and not a change in
 * the weather between two separate runs.
 */
async function interleavedLatency(directUrl: string, gatewayUrl: string, headers: Record<string, string>, pairs: number, warmup: number, bodies: { direct: string; through: string }): Promise<Pair> {
  const build = () => hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 10_000_000, numberOfSignificantValueDigits: 3 });
  const result: Pair = { direct: build(), through: build() };
  const open = (url: string) => {
    const target = new URL(url);
    return { target, pool: new Pool(target.origin, { connections: 1 }) };
  };
  const direct = open(directUrl);
  const through = open(gatewayUrl);
  const call = async (side: ReturnType<typeof open>, extra: Record<string, string>, body: string): Promise<number> => {
    const start = performance.now();
    const response = await side.pool.request({ method: 'POST', path: side.target.pathname, headers: { 'content-type': 'application/json', ...extra }, body });
    await response.body.text();
    if (response.statusCode !== 200) throw new Error(`status ${response.statusCode} from ${side.target.href}`);
    return performance.now() - start;
  };
  for (let i = 0; i < warmup + pairs; i += 1) {
    const d = await call(direct, {}, bodies.direct);
    const t = await call(through, headers, bodies.through);
    if (i < warmup) continue;
    result.direct.recordValue(Math.round(d * 1000));
    result.through.recordValue(Math.round(t * 1000));
  }
  await Promise.all([direct.pool.close(), through.pool.close()]);
  return result;
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
  const model = { id: 'bench/many', name: 'Many', created: 0, description: '', architecture: { input_modalities: ['text'], output_modalities: ['text'], modality: null, instruct_type: null, tokenizer: null }, distillable: null, locates_objects: false, box_format: null, source: 'file' as const };
  const candidates: Candidate[] = Array.from({ length: 10_000 }, (_, i) => {
    const price = 1e-7 * (1 + (i % 97));
    const endpoint: CatalogEndpoint = {
      id: `p${i}:p${i}:bench/many`,
      model,
      provider: provider(i),
      tag: `p${i}`,
      upstreamModel: 'many',
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
    return { endpoint, latency: { p50: (i % 50) / 100, p75: 1, p90: 1, p99: 2 }, throughput: null, successRate1d: 0.99, attempts1d: 100, recentFaultAt: null, paused: false, cooldownUntil: null, lastFailureAt: null };
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

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'verdict-bench-'));
  const upstream = await startChild([join(root, 'dist', 'bench', 'upstream.mjs')]);
  const upstreamOrigin = `http://127.0.0.1:${upstream.output.trim()}`;
  const model = (id: string) => ({ id, name: id, created: 0, architecture: { input_modalities: ['text'], output_modalities: ['text'], modality: 'text->text', instruct_type: null, tokenizer: null } });
  writeFileSync(
    join(dataDir, 'catalog.json'),
    JSON.stringify({
      version: 1,
      providers: [
        { slug: 'bench', name: 'Bench', wire_format: 'decisions', base_url: `${upstreamOrigin}/api/v1`, local: true },
        { slug: 'mock', name: 'Mock chat', wire_format: 'openai', base_url: `${upstreamOrigin}/v1`, local: true },
      ],
      models: [model('bench/echo'), model('bench/chat')],
      endpoints: [
        { model_id: 'bench/echo', provider: 'bench', upstream_model: 'bench-echo', pricing: { prompt: '0.000001', completion: '0.000001' } },
        { model_id: 'bench/chat', provider: 'mock', upstream_model: 'bench-chat', pricing: { prompt: '0.000001', completion: '0.000002' }, supported_parameters: ['max_tokens', 'temperature', 'logprobs', 'top_logprobs'] },
      ],
    }),
  );
  const gateway = await startChild([cli, '--port', '0', '--data-dir', dataDir], { VERDICT_LOG_LEVEL: 'error' });
  // A fresh data directory: the server prints its first management key once.
  const key = /^\s+(vd-\S+)$/m.exec(gateway.output)![1]!;
  const gatewayUrl = `${/Verdict is serving at (\S+)/.exec(gateway.output)![1]}/api/alpha/decisions`;
  const auth = { authorization: `Bearer ${key}` };
  const pid = gateway.child.pid!;
  try {
    const ms = (h: hdr.Histogram, p: number) => h.getValueAtPercentile(p) / 1000;
    const rows: ReturnType<typeof row>[] = [];
    const details: string[] = [];
    for (const scenario of SCENARIOS) {
      const directUrl = `${upstreamOrigin}${scenario.directPath}`;
      const rounds: { added50: number; added99: number; direct50: number; direct99: number; through50: number; through99: number; c50: { added50: number; added99: number; rps: number; directRps: number; errors: number; cpu: number } }[] = [];
      for (let round = 1; round <= ROUNDS; round += 1) {
        process.stdout.write(`${scenario.name}: round ${round} of ${ROUNDS}, concurrency 1 (${PAIRS} interleaved pairs)…\n`);
        const pair = await interleavedLatency(directUrl, gatewayUrl, auth, PAIRS, round === 1 ? 1000 : 200, { direct: scenario.directBody, through: scenario.gatewayBody });
        process.stdout.write(`${scenario.name}: round ${round} of ${ROUNDS}, concurrency 50 (${LOAD_SECONDS} s each way)…\n`);
        const direct50 = await load(directUrl, {}, scenario.directBody, 50, LOAD_SECONDS);
        const cpuBefore = cpuMicros(pid);
        const through50 = await load(gatewayUrl, auth, scenario.gatewayBody, 50, LOAD_SECONDS);
        const cpuAfter = cpuMicros(pid);
        rounds.push({
          added50: ms(pair.through, 50) - ms(pair.direct, 50),
          added99: ms(pair.through, 99) - ms(pair.direct, 99),
          direct50: ms(pair.direct, 50),
          direct99: ms(pair.direct, 99),
          through50: ms(pair.through, 50),
          through99: ms(pair.through, 99),
          c50: {
            added50: through50.latency.p50 - direct50.latency.p50,
            added99: through50.latency.p99 - direct50.latency.p99,
            rps: through50.requests.average,
            directRps: direct50.requests.average,
            errors: through50.errors + through50.non2xx + through50.timeouts,
            cpu: (cpuAfter - cpuBefore) / through50.requests.total,
          },
        });
      }
      /** The median of the rounds, with the range beside it. */
      const spread = (values: number[], digits: number, unit: string) => {
        const sorted = [...values].sort((a, b) => a - b);
        const median = sorted[Math.floor(sorted.length / 2)]!;
        return `${fmt(median, digits)}${unit} (${fmt(sorted[0]!, digits)}–${fmt(sorted.at(-1)!, digits)})`;
      };
      const pick = <T,>(f: (r: (typeof rounds)[number]) => T) => rounds.map(f);
      const errors = pick((r) => r.c50.errors).reduce((a, b) => a + b, 0);
      const mid = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
      const rps = pick((r) => r.c50.rps);
      const tag = scenario.name.slice(0, 3);
      rows.push(
        row(`${tag} added latency p50, concurrency 1`, spread(pick((r) => r.added50), 3, ' ms'), atMost(0.3, ' ms', mid(pick((r) => r.added50)))),
        row(`${tag} added latency p99, concurrency 1`, spread(pick((r) => r.added99), 3, ' ms'), atMost(2, ' ms', mid(pick((r) => r.added99)))),
        row(`${tag} added latency p50, concurrency 50`, spread(pick((r) => r.c50.added50), 1, ' ms'), atMost(5, ' ms', mid(pick((r) => r.c50.added50)))),
        row(`${tag} added latency p99, concurrency 50`, spread(pick((r) => r.c50.added99), 1, ' ms')),
        row(`${tag} requests per second through the gateway, concurrency 50`, `${spread(rps, 0, '')}; errors: ${errors}`, { text: '≥ 5,000 with 0 errors', met: mid(rps) >= 5000 && errors === 0 }),
        row(`${tag} requests per second direct to the upstream, concurrency 50`, spread(pick((r) => r.c50.directRps), 0, '')),
        row(`${tag} gateway CPU time per request, concurrency 50`, spread(pick((r) => r.c50.cpu), 0, ' µs'), atMost(150, ' µs', mid(pick((r) => r.c50.cpu)))),
      );
      details.push(`${scenario.name}, concurrency 1 per round (direct / through, ms): ${rounds.map((r) => `p50 ${fmt(r.direct50, 3)} / ${fmt(r.through50, 3)}, p99 ${fmt(r.direct99, 3)} / ${fmt(r.through99, 3)}`).join('; ')}.`);
    }
    const plan = planBench();
    const rss = peakRssMiB(pid);
    rows.push(
      row('gateway peak RSS over every scenario', `${fmt(rss, 0)} MiB`, atMost(150, ' MiB', rss)),
      row('plan for 10,000 endpoints, load balancing (median)', `${fmt(plan.loadBalance, 3)} ms`, below(1, ' ms', plan.loadBalance)),
      row('plan for 10,000 endpoints, sort + zdr + latency preference (median)', `${fmt(plan.sorted, 3)} ms`, below(1, ' ms', plan.sorted)),
    );
    const detail = [
      `${ROUNDS} rounds per scenario, each: ${PAIRS} interleaved pairs at concurrency 1 (a direct call, then the same work through the gateway), then ${LOAD_SECONDS} s of load at concurrency 50 direct and ${LOAD_SECONDS} s through the gateway. Added latency is the gateway's percentile minus the direct one from the same round. Direct calls send the upstream what the gateway sends it.`,
      ...details,
      `Load generator (autocannon), gateway and upstream share this machine's two cores; the direct runs have the same handicap. CPU time is the gateway process's user + system time over its load run, divided by the requests it answered.`,
    ].join('\n\n');
    publish({ root, argv: process.argv.slice(2), title: 'Gateway overhead', resultHeader: 'result: median of the rounds (lowest–highest)', rows, detail });
  } finally {
    // The gateway writes its last figures on the way out: its data directory goes after it has exited.
    const exited = new Promise((resolve) => gateway.child.once('exit', resolve));
    gateway.child.kill('SIGTERM');
    upstream.child.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
