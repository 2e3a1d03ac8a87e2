import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { liveRule } from '../core/captures/match';
import { questionSignature } from '../core/captures/signature';
import { CaptureTap, type OfferedCall } from '../core/captures/tap';
import type { StoredCaptureRule } from '../core/captures/storage';
import { silentLogger } from '../core/logger';
import { openSqliteStorage } from '../core/store/sqlite/storage';

const CALLS = 20_000;
const BATCH = 2_000;

/** µs of this process's CPU per call of `work`, the median of three rounds after one untimed. */
function cpuPerCall(work: (i: number) => void): number {
  const rounds: number[] = [];
  for (let round = 0; round < 4; round += 1) {
    const start = process.cpuUsage();
    for (let i = 0; i < CALLS; i += 1) work(i);
    const used = process.cpuUsage(start);
    if (round > 0) rounds.push((used.user + used.system) / CALLS);
  }
  return rounds.sort((a, b) => a - b)[1]!;
}

/**
 * What capturing costs a public request's path: the tap's `offer` (in the request's turn, before the
 * answer is written back) with rules that do not match it, and with one that takes it; and the
 * batched write that follows off the path, per captured request (a real SQLite file).
 */
export async function captureBench(): Promise<{ none: number; noMatch: number; match: number; writePerCapture: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'verdict-capture-bench-'));
  const storage = openSqliteStorage(join(dir, 'verdict.sqlite'));
  try {
    const clock = { now: () => Date.now() };
    await storage.datasets.create({ id: 'd', name: 'captured', items: 0, created_at: new Date().toISOString(), sample: false }, []);
    const rule = (id: string, over: Partial<StoredCaptureRule>): StoredCaptureRule => ({
      id,
      name: id,
      dataset_id: 'd',
      key_ids: null,
      question_set_id: null,
      question_signature: null,
      models: null,
      when: null,
      sample_rate: 1,
      daily_cap: 1_000_000,
      retention_days: 30,
      keep_images: false,
      created_at: new Date().toISOString(),
      ...over,
    });
    // Ten rules for other keys and sets, as a team's gateway may hold: none takes the call.
    const others = Array.from({ length: 10 }, (_, i) =>
      rule(`other-${i}`, i % 2 ? { key_ids: [`key-${i}`] } : { question_signature: `sig-${i}`, models: ['bench/decider'] }),
    );
    const taking = rule('taking', { key_ids: ['key-bench'], when: { probabilityBetween: [0, 1] } });
    for (const r of [...others, taking]) await storage.captures.add(r);
    const call = (i: number): OfferedCall => ({
      request: {
        model: 'bench/decider',
        state: `ticket ${i}: the parcel came late`,
        questions: { late: { type: 'noul', instructions: 'Did the parcel come late?' } },
      },
      response: {
        answers: { late: { type: 'noul', noul: 0.8 } },
        model: 'bench/decider',
        provider: 'bench',
        usage: { input_tokens: 40, output_tokens: 1, cost: 0.00001 },
      },
      keyId: 'key-bench',
      requestId: `req-${i}`,
      header: () => undefined,
      cascade: null,
      latencyMs: 120,
    });
    const calls = Array.from({ length: CALLS }, (_, i) => call(i));
    const tap = new CaptureTap(storage.captures, clock, silentLogger);
    const none = cpuPerCall((i) => tap.offer(calls[i]!));
    // The five rules made for saved sets watch them: every call's signature is worked out, and its
    // answers counted (verdict_answers_total) when it asks one of them; here it asks none.
    const watched = new Map(others.flatMap((r) => (r.question_signature ? [[r.question_signature, `set ${r.id}`] as const] : [])));
    tap.setRules(others.map(liveRule), undefined, watched);
    const noMatch = cpuPerCall((i) => tap.offer(calls[i]!));
    // The rule that takes the call watches the set it asks too: its answers are counted as well.
    tap.setRules([...others, taking].map(liveRule), undefined, new Map([...watched, [questionSignature(calls[0]!.request.questions), 'bench set']]));
    // A rule that takes every call: timed in batches the tap lets wait (MAX_WAITING_PER_RULE), each
    // batch then written as the 200 ms timer would, timed apart (wall clock: it is I/O).
    const samples: number[] = [];
    let writeMicros = 0;
    let written = 0;
    for (let round = 0; round < 4; round += 1) {
      let cpu = 0;
      for (let from = 0; from < CALLS; from += BATCH) {
        const start = process.cpuUsage();
        for (let i = from; i < from + BATCH; i += 1) tap.offer(calls[i]!);
        const used = process.cpuUsage(start);
        cpu += used.user + used.system;
        const began = process.hrtime.bigint();
        await tap.flush();
        if (round > 0) {
          writeMicros += Number(process.hrtime.bigint() - began) / 1000;
          written += BATCH;
        }
      }
      if (round > 0) samples.push(cpu / CALLS);
    }
    const match = samples.sort((a, b) => a - b)[1]!;
    return { none, noMatch, match, writePerCapture: writeMicros / written };
  } finally {
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
