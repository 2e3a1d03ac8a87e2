import { benchCore } from './bench-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { estimateTokens } from '../core/decisions/state';
import { uncachedInput } from '../core/decisions/usage';
import { fleetProcess } from './fleet-process';
import { atMost, fmt, publish, row } from './report';
import { internalsOf } from '../test-support/internals-of';

/**
 * Cost and latency of a 6-question set over a 5,000-token state, answered through the
 * simulated fleet (which reports cached prompt tokens the way OpenAI does: prefixes of 1,024
 * tokens or more seen in the last five minutes, in 128-token steps).
 */
const root = join(import.meta.dirname, '..', '..');
const WORDS = 'parcel delivery refund damaged customer invoice late courier warehouse support order tracking address weekend package'.split(' ');

function stateOf(tokens: number, seed: number): string {
  const words: string[] = [`Case ${seed}.`];
  let length = words[0]!.length;
  let i = seed;
  while (estimateTokens('x'.repeat(length)) < tokens) {
    const word = WORDS[(i = (i * 7 + 3) % WORDS.length)]!;
    words.push(word);
    length += word.length + 1;
  }
  return words.join(' ');
}

/** Length of the union of time intervals. */
function inFlight(intervals: (readonly [number, number])[]): number {
  const sorted = [...intervals].sort((a, b) => a[0] - b[0]);
  let covered = 0;
  let end = -Infinity;
  for (const [s, e] of sorted) {
    if (e <= end) continue;
    covered += e - Math.max(s, end);
    end = e;
  }
  return covered;
}

const QUESTIONS = {
  late: { type: 'noul', instructions: 'Did the parcel arrive late?' },
  damaged: { type: 'noul', instructions: 'Was the parcel damaged?', criteria: { true: 'the text says it was damaged', false: 'no damage is mentioned' } },
  topic: {
    type: 'choice',
    instructions: 'What is the message about?',
    criteria: { delivery: 'late or lost parcels', billing: 'invoices and refunds', account: 'logins and addresses' },
  },
  tone: { type: 'choice', instructions: 'Tone?', criteria: { calm: null, annoyed: null, furious: null } },
  severity: { type: 'score', instructions: 'How severe is the problem?', criteria: ['none', 'minor', 'major', 'critical'] },
  urgency: { type: 'score', instructions: 'How urgent is a reply?', criteria: ['whenever', 'this week', 'today'] },
} as const;

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'verdict-bench-'));
  const fleet = await fleetProcess(root);
  const core = await benchCore(dataDir);
  try {
    await core.replaceCatalogFile(fleet.catalog);
    const model = 'sandbox/baseline-text';
    const provider = { order: ['sim-swift'], allow_fallbacks: false };
    const warmUp = 10;
    const runs = warmUp + Number(process.env['BENCH_RUNS'] ?? 50);
    const ratios: number[] = [];
    const naiveRatios: number[] = [];
    const overheads: number[] = [];
    const totals: number[] = [];
    const directs: number[] = [];
    const endpoint = core.catalog.endpointsOf(model).find((e) => e.provider.slug === 'sim-swift')!;
    for (let run = 0; run < runs; run += 1) {
      const state = stateOf(5_000, run + 1);
      const questionTokens = estimateTokens(
        Object.values(QUESTIONS)
          .map((q) => JSON.stringify(q))
          .join(' '),
      );
      const oneCopy = estimateTokens(state) + questionTokens;
      const started = performance.timeOrigin + performance.now();
      const outcome = await internalsOf(core).decisions.decide({ model, state, questions: QUESTIONS as never, provider }, { requestId: `bench-${run}` });
      const total = performance.timeOrigin + performance.now() - started;
      const billed = uncachedInput(outcome.ledger);
      const naive = outcome.ledger.reduce((n, e) => n + (e.usage.inputTokens ?? 0), 0);
      if (run < warmUp) continue;
      ratios.push(billed / oneCopy);
      naiveRatios.push(naive / oneCopy);
      // Time with at least one upstream call in flight (the union of the attempts' intervals);
      // the rest of the request's time is the gateway's own.
      overheads.push(total - inFlight(outcome.attempts.map((a) => [a.startedAt, a.startedAt + a.totalMs] as const)));
      totals.push(total);
      const d0 = performance.now();
      await internalsOf(core).upstreams.callForLogprobs(
        endpoint,
        {
          messages: [{ role: 'user', content: [{ type: 'text', text: `${state}\n\nQuestion: Did the parcel arrive late?\nAnswer Yes or No.` }] }],
          maxTokens: 1,
          topLogprobs: 20,
        },
        AbortSignal.timeout(10_000),
      );
      directs.push(performance.now() - d0);
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const rows = [
      row('billed uncached input / one copy of state + questions (our plan)', fmt(median(ratios), 3), atMost(1.3, '', median(ratios))),
      row('billed uncached input / one copy (naive: one uncached call per question)', fmt(median(naiveRatios), 3)),
      row('gateway time with no upstream call in flight (median)', `${fmt(median(overheads), 3)} ms`, atMost(1, ' ms', median(overheads))),
      row('whole request, 6 questions (median)', `${fmt(median(totals), 3)} ms`),
      row('one direct upstream call, same state (median)', `${fmt(median(directs), 3)} ms`),
    ];
    const detail = [
      `${runs - warmUp} requests after ${warmUp} to warm up, each a fresh 5,000-token state so no cache carries over between them; the simulated provider answers at once (time scale 0).`,
      'Requests go first-question-first, then the other five side by side on the warm prefix, so the critical path is two upstream calls.',
      'The simulated provider runs in a process of its own. "No upstream call in flight" is the request time outside the union of the attempts\' intervals: routing, answer extraction and accounting before, between and after the calls (building and parsing each call\'s body falls inside its interval).',
    ].join(' ');
    publish({ root, argv: process.argv.slice(2), title: 'Decisions cost and latency', resultHeader: 'result', rows, detail });
  } finally {
    fleet.child.kill('SIGTERM');
    await core.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
