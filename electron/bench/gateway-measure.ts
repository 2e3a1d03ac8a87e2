import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import * as hdr from 'hdr-histogram-js';
import { Pool } from 'undici';
import { freePort } from '../test-support/free-port';
import { cpuMicros, peakRssMiB } from './proc';
import type { Floor } from './gateway-rows';

/** How the gateway bench (gateway.ts) measures: child processes, recorded upstream calls, interleaved pairs, load. */

const root = join(import.meta.dirname, '..', '..');

/** A percentile of a histogram recorded in µs, in ms. */
export const ms = (h: hdr.Histogram, p: number) => h.getValueAtPercentile(p) / 1000;

/**
 * A bare Node proxy (node-floor.ts) sending the recorded upstream call for each request, measured
 * as the gateway is: interleaved pairs at concurrency 1, then load at concurrency 50.
 */
export async function measureFloor(upstreamOrigin: string, call: UpstreamCall, clientBody: string, pairs: number, loadSeconds: number): Promise<Floor> {
  const dir = mkdtempSync(join(tmpdir(), 'verdict-floor-'));
  const bodyFile = join(dir, 'body.json');
  writeFileSync(bodyFile, call.body);
  const floor = await startChild([join(root, 'dist', 'bench', 'node-floor.mjs'), `${upstreamOrigin}${call.path}`, bodyFile]);
  try {
    return await measureBeside(
      'the bare proxy',
      floor.child,
      `http://127.0.0.1:${floor.output.trim()}/`,
      {},
      upstreamOrigin,
      call,
      clientBody,
      pairs,
      loadSeconds,
    );
  } finally {
    await stop(floor.child);
    rmSync(dir, { recursive: true, force: true });
  }
}

const PORTKEY = join(root, 'node_modules', '@portkey-ai', 'gateway');

/** The Portkey version the bench runs, as installed (package.json pins it). */
export const portkeyVersion = (): string => (JSON.parse(readFileSync(join(PORTKEY, 'package.json'), 'utf8')) as { version: string }).version;

/**
 * Portkey's open-source gateway (`@portkey-ai/gateway`, started on loopback as its `npx` command
 * starts it) proxying the same upstream call: the client sends the recorded chat completion to its
 * `/v1/chat/completions` with the upstream as its OpenAI custom host, and Portkey streams the
 * upstream's events back. Measured as the gateway and the bare proxy are.
 */
export async function measurePortkey(upstreamOrigin: string, call: UpstreamCall, pairs: number, loadSeconds: number): Promise<Floor> {
  const port = await freePort();
  const entry = join(PORTKEY, 'build', 'start-server.js');
  const child = spawn(process.execPath, ['--import', join(root, 'electron', 'bench', 'portkey-preload.mjs'), entry, `--port=${port}`, '--headless'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}/v1/chat/completions`;
  const headers = {
    'x-portkey-provider': 'openai',
    'x-portkey-custom-host': `${upstreamOrigin}${call.path.replace(/\/chat\/completions$/, '')}`,
    authorization: 'Bearer bench',
  };
  try {
    await untilAnswering(url, headers, call.body, child);
    return await measureBeside('Portkey', child, url, headers, upstreamOrigin, call, call.body, pairs, loadSeconds);
  } finally {
    await stop(child);
  }
}

/** Waits until a proxy started beside the gateway answers the call with a 200 (10 s at most). */
async function untilAnswering(url: string, headers: Record<string, string>, body: string, child: ChildProcess): Promise<void> {
  const until = Date.now() + 10_000;
  let last = '';
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`${url} exited with ${child.exitCode}`);
    try {
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
      last = `${response.status} ${(await response.text()).slice(0, 200)}`;
      if (response.status === 200) return;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not answer the call within 10 s: ${last}`);
}

/** Interleaved pairs at concurrency 1 against the direct call, then load at concurrency 50 with the process's CPU read. */
async function measureBeside(
  what: string,
  child: ChildProcess,
  url: string,
  headers: Record<string, string>,
  upstreamOrigin: string,
  call: UpstreamCall,
  clientBody: string,
  pairs: number,
  loadSeconds: number,
): Promise<Floor> {
  const pair = await interleavedLatency(upstreamOrigin, [call], url, headers, clientBody, pairs, 200);
  await load(url, headers, clientBody, 50, 1);
  const before = cpuMicros(child.pid!);
  const result = await load(url, headers, clientBody, 50, loadSeconds);
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${what} failed ${result.non2xx + result.errors} requests`);
  return {
    cpu: (cpuMicros(child.pid!) - before) / result.requests.total,
    rps: result.requests.average,
    added50: ms(pair.through, 50) - ms(pair.direct, 50),
    added99: ms(pair.through, 99) - ms(pair.direct, 99),
    rssMiB: peakRssMiB(child.pid!),
  };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** One upstream call as the gateway made it. */
export interface UpstreamCall {
  path: string;
  body: string;
}

/** Children still running: ended with the bench, however it ends (a failed round would otherwise leave its gateway running). */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export function startChild(command: string[], env: Record<string, string> = {}): Promise<{ child: ChildProcess; output: string }> {
  const child = spawn(process.execPath, command, { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
  running.add(child);
  child.once('exit', () => running.delete(child));
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
export async function interleavedLatency(
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
export async function recordCalls(upstreamOrigin: string, gatewayUrl: string, headers: Record<string, string>, gatewayBody: string): Promise<UpstreamCall[]> {
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

export function load(url: string, headers: Record<string, string>, body: string, connections: number, seconds: number): Promise<autocannon.Result> {
  return autocannon({ url, method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body, connections, duration: seconds, pipelining: 1 });
}
