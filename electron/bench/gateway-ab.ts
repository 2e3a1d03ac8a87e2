import { join } from 'node:path';
import { percentile } from '../../shared/metrics/percentile';
import { load } from './gateway-measure';
import type { Scenario } from './gateway-rows';
import { cpuMicros } from './proc';
import { fmt, row, type BenchRow } from './report';

/**
 * Two builds of the gateway side by side on one upstream, for a change whose effect is smaller than
 * this machine's drift between two runs (other tenants, frequency): short loads alternated A B B A,
 * so each pair of slots sees the same moment, and the figure is the median of the paired ratios.
 */
export interface Side {
  name: string;
  url: string;
  auth: Record<string, string>;
  pid: number;
}

/** A gateway process started for a scenario. */
export interface Gateway {
  gatewayUrl: string;
  auth: Record<string, string>;
  pid: number;
  stop(): Promise<void>;
}

/** How long each slot loads one build. */
const SLOT_SECONDS = 3;

export const AB_DETAIL = `Each pair of slots: ${SLOT_SECONDS} s of load at concurrency 50 on one build, then on the other, in A B B A order; both builds answer from one upstream, on this machine's two cores.`;

/** Each scenario on this build (`here`, its server's script) and on the checkout at `other` (built), paired. */
export async function compareBuilds(
  scenarios: readonly Scenario[],
  start: (scenario: Scenario, server: string) => Promise<Gateway>,
  builds: { here: string; other: string },
  pairs: number,
): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const side = (name: string, g: Gateway): Side => ({ name, url: g.gatewayUrl, auth: g.auth, pid: g.pid });
  for (const scenario of scenarios) {
    const a = await start(scenario, builds.here);
    const b = await start(scenario, join(builds.other, 'dist', 'server', 'cli.mjs'));
    try {
      rows.push(...(await abRows(scenario.name.split(':')[0]!, side('this build', a), side(builds.other, b), scenario.gatewayBody, pairs, SLOT_SECONDS)));
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  }
  return rows;
}

export interface Slot {
  cpu: number;
  rps: number;
}

/** One slot: `seconds` of load at concurrency 50, its CPU per request and requests per second. */
async function slot(side: Side, body: string, seconds: number): Promise<Slot> {
  const before = cpuMicros(side.pid);
  const result = await load(side.url, side.auth, body, 50, seconds);
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${side.name}: ${result.non2xx + result.errors} requests failed`);
  return { cpu: (cpuMicros(side.pid) - before) / result.requests.total, rps: result.requests.total / seconds };
}

export const median = (xs: number[]) => percentile(xs, 0.5)!;

/** What `pairs` pairs of slots measured: each side's slots, and A ÷ B slot by slot. */
export interface Paired {
  sides: { a: Slot[]; b: Slot[] };
  ratios: { cpu: number; rps: number }[];
}

/**
 * `pairs` pairs of slots, in A B B A order, after a warm-up of each. `bodies` is what each side
 * is sent (the same request, or each side's own).
 */
export async function pairedSlots(label: string, a: Side, b: Side, bodies: { a: string; b: string }, pairs: number, seconds = SLOT_SECONDS): Promise<Paired> {
  await slot(a, bodies.a, 2);
  await slot(b, bodies.b, 2);
  const ratios: { cpu: number; rps: number }[] = [];
  const sides = { a: [] as Slot[], b: [] as Slot[] };
  for (let i = 0; i < pairs; i += 1) {
    process.stdout.write(`${label}: pair ${i + 1} of ${pairs}…\n`);
    const [first, second] = i % 2 === 0 ? [a, b] : [b, a];
    const x = await slot(first, first === a ? bodies.a : bodies.b, seconds);
    const y = await slot(second, second === a ? bodies.a : bodies.b, seconds);
    const [sa, sb] = first === a ? [x, y] : [y, x];
    sides.a.push(sa);
    sides.b.push(sb);
    ratios.push({ cpu: sa.cpu / sb.cpu, rps: sa.rps / sb.rps });
  }
  return { sides, ratios };
}

/** The lowest and highest of `xs`, as "low–high". */
export const range = (xs: number[], digits: number) => `${fmt(Math.min(...xs), digits)}–${fmt(Math.max(...xs), digits)}`;

/** Rows of the medians and the paired ratio of two builds on one request. */
async function abRows(label: string, a: Side, b: Side, body: string, pairs: number, seconds: number): Promise<BenchRow[]> {
  const { sides, ratios } = await pairedSlots(label, a, b, { a: body, b: body }, pairs, seconds);
  const cpuRatios = ratios.map((r) => r.cpu);
  const rpsRatios = ratios.map((r) => r.rps);
  return [
    row(
      `${label}: ${a.name}, gateway CPU per request (median of ${pairs} slots of ${seconds} s)`,
      `${fmt(median(sides.a.map((s) => s.cpu)), 0)} µs (${range(
        sides.a.map((s) => s.cpu),
        0,
      )})`,
    ),
    row(
      `${label}: ${b.name}, gateway CPU per request`,
      `${fmt(median(sides.b.map((s) => s.cpu)), 0)} µs (${range(
        sides.b.map((s) => s.cpu),
        0,
      )})`,
    ),
    row(`${label}: ${a.name} ÷ ${b.name}, CPU per request (median of the paired ratios)`, `${fmt(median(cpuRatios), 3)} (${range(cpuRatios, 3)})`),
    row(`${label}: ${a.name} ÷ ${b.name}, requests per second (median of the paired ratios)`, `${fmt(median(rpsRatios), 3)} (${range(rpsRatios, 3)})`),
  ];
}
