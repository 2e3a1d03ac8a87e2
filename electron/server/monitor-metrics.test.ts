import { afterEach, describe, expect, it } from 'vitest';
import { CaptureRuleInputSchema, type CaptureRuleInput } from '../../shared/schemas/capture';
import type { Question } from '../../shared/schemas/question';
import type { OfferedCall } from '../core/captures/tap';
import { AS_DESKTOP, tempCore, type TempCore } from '../test-support/temp-core';
import { observability } from './observability';

const DAY = 86_400_000;
let now = Date.parse('2026-03-02T10:00:00.000Z');
const clock = { now: () => now };

const questions: Record<string, Question> = {
  late: { type: 'noul', instructions: 'Did the parcel come late?' },
  mood: { type: 'choice', instructions: 'Mood?', criteria: { calm: 'no anger', angry: null } },
};

let calls = 0;
/** An answered call asking the saved set's questions; `late` is P(yes), `mood` dropped when declined. */
function call(late: number, over: Partial<OfferedCall> & { declined?: boolean; off?: boolean } = {}): OfferedCall {
  calls += 1;
  const answers = {
    late: { type: 'noul' as const, noul: late },
    ...(over.declined ? {} : { mood: { type: 'choice' as const, choice: 'calm', confidence: 0.8 } }),
  };
  return {
    request: { model: 'sandbox/decider', state: `ticket ${calls}`, questions },
    response: { answers, model: 'sandbox/decider', provider: 'sandbox', usage: { input_tokens: 10, output_tokens: 2, cost: 0.001 } },
    keyId: 'key-a',
    requestId: `req-${calls}`,
    header: (name) => (over.off && name === 'x-verdict-capture' ? 'off' : undefined),
    cascade: null,
    latencyMs: 100,
    ...over,
  };
}

/** One sample's value from Prometheus's text, by its name and labels as written. */
async function sample(metrics: string, series: string): Promise<number | undefined> {
  const line = metrics.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/**
 * The monitor of a saved question set, and the same figures as Prometheus metrics: every rule naming
 * the set read together with a request taken twice counted once, how the requests went, live
 * accuracy once people review captured items, drift against the week before, and the items waiting.
 */
describe("a question set's monitor and its metrics", () => {
  let env: TempCore | undefined;
  afterEach(async () => {
    await env?.cleanup();
    env = undefined;
  });

  it('reads every rule of the set, counts each request once, and gives latency, escalation, refusals, drift, accuracy and the queue; /metrics says the same', async () => {
    now = Date.parse('2026-03-02T10:00:00.000Z');
    env = await tempCore({ clock, resumeEvaluations: false });
    const core = env.core;
    const set = await core.handlers['sets.save']({ name: 'Parcels', request: { model: 'sandbox/decider', state: 'x', questions } }, AS_DESKTOP);
    const rule = (input: CaptureRuleInput) => core.handlers['captures.create'](CaptureRuleInputSchema.parse(input), AS_DESKTOP);
    const all = await rule({ name: 'all parcels', question_set_id: set.id, daily_cap: 1000 });
    // A second rule of the set takes only the yes answers: those requests are in both datasets.
    const yes = await rule({ name: 'late parcels', question_set_id: set.id, daily_cap: 1000, when: { question: 'late', probabilityBetween: [0.5, 1] } });

    // Three days ago: 40 requests, 4 of them said late.
    now -= 3 * DAY;
    for (let i = 0; i < 40; i += 1) core.captureTap.offer(call(i % 10 === 0 ? 0.9 : 0.2));
    await core.captureTap.flush();
    now += 3 * DAY - 30 * 60_000;
    // In the last hour: 20 requests, 15 said late, latencies 100, 200, ... 2000 ms; the first 5 were
    // sent on to a person (escalated and provisional), the next 3 escalated to another model; two
    // declined the mood question. One more marked off is counted in the answers but never captured.
    for (let i = 0; i < 20; i += 1) {
      const cascade = i < 5 ? { triggered_by: ['late'], human: true as const } : i < 8 ? { triggered_by: ['late'] } : null;
      core.captureTap.offer(call(i % 4 === 3 ? 0.1 : 0.8, { latencyMs: (i + 1) * 100, cascade, declined: i >= 18 }));
    }
    core.captureTap.offer(call(0.8, { off: true }));
    await core.captureTap.flush();
    now += 30 * 60_000;

    const monitor = () => core.handlers['captures.monitor']({ question_set_id: set.id, window: '24h' });
    const before = await monitor();
    expect(before.subject).toEqual({ kind: 'set', id: set.id, name: 'Parcels' });
    expect(before.rule_ids.sort()).toEqual([all.id, yes.id].sort());
    expect(before.window).toMatchObject({ requests: 20, with_outcome: 20, escalated_share: 8 / 20, provisional_share: 5 / 20, refused_share: 2 / 20 });
    // Linear interpolation between ranks: the median of 100..2000 is halfway between 1000 and 1100; p95 is 5% past 1900.
    expect(before.window.latency_p50_ms).toBeCloseTo(1050, 9);
    expect(before.window.latency_p95_ms).toBeCloseTo(1905, 9);
    expect(before.reference.requests).toBe(40);
    const late = before.questions.find((q) => q.question === 'late')!;
    expect(late.shares).toEqual({ yes: 15 / 20, no: 5 / 20 });
    expect(late.drift).toBeCloseTo(0.75 - 0.1, 9);
    expect(late.alert).toBe(true);
    expect(before.accuracy).toBeNull();
    // Unreviewed: the first rule's 60 items and the second's 4 + 15.
    expect(before.waiting_review).toBe(79);

    // A person reviews the first four requests of the last hour (said late, late, late, not late):
    // agrees on the first two, not on the last two; the mood as the model said each time.
    const labels = [true, true, false, true];
    let after = 39;
    for (const late of labels) {
      const next = await core.handlers['review.next']({ dataset_id: all.dataset_id, after }, AS_DESKTOP);
      after = next.item!.position;
      await core.handlers['review.answer']({ dataset_id: all.dataset_id, position: after, answers: { late, mood: 'calm' }, flagged: false }, AS_DESKTOP);
    }
    const reviewed = await monitor();
    const lateAccuracy = reviewed.questions.find((q) => q.question === 'late')!.accuracy!;
    expect(lateAccuracy).toMatchObject({ reviewed: 4, correct: 2, accuracy: 0.5 });
    // The Wilson interval of 2 in 4 at 95%: 0.150 to 0.850.
    expect(lateAccuracy.interval!.low).toBeCloseTo(0.15, 3);
    expect(lateAccuracy.interval!.high).toBeCloseTo(0.85, 3);
    expect(reviewed.questions.find((q) => q.question === 'mood')!.accuracy).toMatchObject({ reviewed: 4, correct: 4 });
    expect(reviewed.accuracy).toMatchObject({ reviewed: 8, correct: 6 });
    expect(reviewed.waiting_review).toBe(75);

    const obs = observability(core);
    try {
      const text = await (await obs.routes.request('/metrics')).text();
      // Every answer to the set, the one marked off too: 4 + 15 + 1 late, 36 + 5 not.
      expect(await sample(text, 'verdict_answers_total{set="Parcels",question="late",answer="yes"}')).toBe(20);
      expect(await sample(text, 'verdict_answers_total{set="Parcels",question="late",answer="no"}')).toBe(41);
      expect(await sample(text, 'verdict_answers_total{set="Parcels",question="mood",answer="calm"}')).toBe(59);
      expect(await sample(text, 'verdict_drift{set="Parcels",question="late"}')).toBeCloseTo(0.65, 9);
      expect(await sample(text, 'verdict_review_queue_items{queue="captured",set="Parcels"}')).toBe(75);
    } finally {
      obs.close();
    }
  });

  it('names what is wrong with a monitor request', async () => {
    env = await tempCore({ clock, resumeEvaluations: false });
    const monitor = (input: unknown) => env!.core.handlers['captures.monitor'](input as never);
    await expect(monitor({ question_set_id: 'set-nope', window: '24h' })).rejects.toThrow('No question set with id "set-nope"');
    await expect(monitor({ rule_id: 'capture-nope', window: '24h' })).rejects.toThrow('No capture rule with id "capture-nope"');
  });
});
