import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DecisionsRequest } from '../../../shared/schemas/decisions-request';
import { CaptureRuleInputSchema, type CaptureRuleInput } from '../../../shared/schemas/capture';
import { pngWithRect } from '../../test-support/images';
import { AS_DESKTOP, tempCore, type TempCore } from '../../test-support/temp-core';
import { AuditLog } from '../audit/audit-log';
import { silentLogger } from '../logger';
import { DATABASE_FILE } from '../store/open';
import { openSqliteStorage } from '../store/sqlite/storage';
import { IMAGE_NOT_KEPT } from './content';
import { Captures } from './captures';
import { liveRule } from './match';
import type { CaptureStorage } from './storage';
import { CaptureTap, type OfferedCall } from './tap';

/** A small seeded generator (mulberry32): the sampling is checked on a known stream of numbers. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const DAY = 86_400_000;
let now = Date.parse('2026-03-02T10:00:00.000Z');
const clock = { now: () => now };

const request = (over: Partial<DecisionsRequest> = {}): DecisionsRequest => ({
  model: 'sandbox/decider',
  state: 'The parcel came late',
  questions: { late: { type: 'noul', instructions: 'Late?' } },
  ...over,
});

let calls = 0;
const call = (over: Partial<OfferedCall> = {}, req = request()): OfferedCall => ({
  request: req,
  response: {
    answers: { late: { type: 'noul', noul: 0.7 } },
    model: 'sandbox/decider',
    provider: 'sandbox',
    usage: { input_tokens: 10, output_tokens: 1, cost: 0.0001 },
  },
  keyId: 'key-a',
  requestId: `req-${(calls += 1)}`,
  header: () => undefined,
  cascade: null,
  latencyMs: 250,
  ...over,
});

describe('capture rules', () => {
  let env: TempCore | undefined;
  afterEach(async () => {
    await env?.cleanup();
    env = undefined;
  });
  const open = async () => {
    now = Date.parse('2026-03-02T10:00:00.000Z');
    env = await tempCore({ clock, resumeEvaluations: false });
    return env.core;
  };
  const rule = (core: TempCore['core'], input: CaptureRuleInput) => core.handlers['captures.create'](CaptureRuleInputSchema.parse(input), AS_DESKTOP);

  it('takes a share of the matching calls within the binomial interval of its sample rate, over 2,000 calls', async () => {
    const core = await open();
    const made = await rule(core, { name: 'a third', sample_rate: 0.3, daily_cap: 1_000_000 });
    const tap = new CaptureTap(core.storage.captures, clock, silentLogger, seeded(7));
    tap.setRules((await core.storage.captures.list()).map(liveRule));
    for (let i = 0; i < 2000; i += 1) tap.offer(call());
    await tap.flush();
    const taken = (await core.handlers['captures.list']({})).find((r) => r.id === made.id)!.captured_today;
    // 99.9% of samples of Binomial(2000, 0.3) fall within 600 ± 3.29 standard deviations (20.5).
    expect(Math.abs(taken - 600)).toBeLessThan(3.29 * Math.sqrt(2000 * 0.3 * 0.7));
  });

  it('holds the daily cap across two processes on one database, opens again the next UTC day, and never takes a call marked off', async () => {
    const core = await open();
    const made = await rule(core, { name: 'capped', daily_cap: 50 });
    const second = openSqliteStorage(join(env!.dataDir, DATABASE_FILE));
    try {
      const taps = [core.storage.captures, second.captures].map((storage) => {
        const tap = new CaptureTap(storage, clock, silentLogger);
        return tap;
      });
      for (const tap of taps) tap.setRules((await core.storage.captures.list()).map(liveRule));
      for (let i = 0; i < 40; i += 1) for (const tap of taps) tap.offer(call());
      taps[0]!.offer(call({ header: (name) => (name === 'x-verdict-capture' ? ' OFF ' : undefined) }));
      await Promise.all(taps.map((t) => t.flush()));
      const counted = async () => (await core.handlers['captures.list']({})).find((r) => r.id === made.id)!;
      expect(await counted()).toMatchObject({ captured_today: 50, captured_total: 50 });
      now += DAY;
      for (const tap of taps) tap.setRules((await core.storage.captures.list()).map(liveRule), new Map());
      taps[1]!.offer(call());
      await taps[1]!.flush();
      expect(await counted()).toMatchObject({ captured_today: 1, captured_total: 51 });
      expect((await core.datasets.get(made.dataset_id)).items).toBe(51);
    } finally {
      await second.close();
    }
  });

  it('a reading of the rules begun before a rule was made, ending after a later reading with it, does not put the rule back to missing', async () => {
    const core = await open();
    const other = openSqliteStorage(join(env!.dataDir, DATABASE_FILE));
    try {
      // Another instance's storage, whose first reading of the rules is held back until released.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let readings = 0;
      const storage: CaptureStorage = Object.assign(Object.create(other.captures) as CaptureStorage, {
        list: async () => {
          const rules = await other.captures.list();
          if ((readings += 1) === 1) await held;
          return rules;
        },
      });
      const tap = new CaptureTap(storage, clock, silentLogger);
      const captures = new Captures(storage, {
        clock,
        audit: new AuditLog(other.audit, clock),
        datasets: core.datasets,
        questionSets: core.questionSets,
        tap,
        knownKey: async () => true,
        knownModel: () => true,
      });
      const scheduled = captures.refresh();
      while (readings === 0) await new Promise((resolve) => setTimeout(resolve, 1));
      const made = await rule(core, { name: 'just made' });
      await captures.refresh();
      release();
      await scheduled;
      tap.offer(call());
      await tap.flush();
      expect((await core.handlers['captures.list']({})).find((r) => r.id === made.id)).toMatchObject({ captured_today: 1 });
    } finally {
      await other.close();
    }
  });

  it('matches by key, model and condition; replaces images unless the rule keeps them, and keeps assets behind their labels', async () => {
    const core = await open();
    const key = await core.handlers['apiKeys.create']({ name: 'ci', kind: 'standard', credit_limit: null, rate_limit_rpm: null }, AS_DESKTOP);
    const plain = await rule(core, { name: 'by key and model', key_ids: [key.info.id], models: ['sandbox/decider'], when: { probabilityBetween: [0.5, 1] } });
    const images = await rule(core, { name: 'with images', keep_images: true, models: ['sandbox/baseline-text'] });
    const png = pngWithRect(8, 8, { x: 1, y: 1, w: 2, h: 2 });
    const withImage = request({
      state: [
        { type: 'text', text: 'shelf' },
        { type: 'image_url', image_url: { url: png } },
      ],
    });
    core.captureTap.offer(call({ keyId: key.info.id }, withImage));
    core.captureTap.offer(call({ keyId: 'someone-else' }));
    core.captureTap.offer(call({ keyId: key.info.id, response: { ...call().response, answers: { late: { type: 'noul', noul: 0.2 } } } }));
    const asset = request({ model: 'sandbox/baseline-text', state: 'Which shelf?', assets: { shelf: { format: 'png', data_base64: png.split(',')[1]! } } });
    core.captureTap.offer(call({ response: { ...call().response, model: 'sandbox/baseline-text' } }, asset));
    await core.captureTap.flush();
    const items = async (id: string) => (await core.handlers['datasets.items']({ dataset_id: id, offset: 0, limit: 10 })).items.map((i) => i.state);
    expect(await items(plain.dataset_id)).toEqual([
      [
        { type: 'text', text: 'shelf' },
        { type: 'text', text: IMAGE_NOT_KEPT },
      ],
    ]);
    expect(await items(images.dataset_id)).toEqual([
      [
        { type: 'text', text: 'Which shelf?' },
        { type: 'text', text: 'Image `shelf`:' },
        { type: 'image_url', image_url: { url: png } },
      ],
    ]);
  });

  it("raises the drift alert when the model's answers switch, and not while they hold; figures read from what the rule captured", async () => {
    const core = await open();
    const made = await rule(core, { name: 'watched', daily_cap: 1000 });
    const answering = (p: number) =>
      call({ response: { ...call().response, answers: { late: { type: 'noul', noul: p } }, usage: { input_tokens: 1, output_tokens: 1, cost: 0.002 } } });
    // Three days ago the model mostly said no.
    now -= 3 * DAY;
    for (let i = 0; i < 40; i += 1) core.captureTap.offer(answering(i % 10 === 0 ? 0.7 : 0.2));
    await core.captureTap.flush();
    now += 3 * DAY - 30 * 60_000;
    // In the last day, still the same.
    for (let i = 0; i < 20; i += 1) core.captureTap.offer(answering(i % 10 === 0 ? 0.7 : 0.2));
    await core.captureTap.flush();
    now += 30 * 60_000;
    const steady = await core.handlers['captures.monitor']({ rule_id: made.id, window: '24h' });
    expect(steady.window.requests).toBe(20);
    expect(steady.reference.requests).toBe(40);
    expect(steady.window.cost_per_request).toBeCloseTo(0.002, 10);
    expect(steady.questions).toMatchObject([{ question: 'late', kind: 'noul', shares: { yes: 0.1, no: 0.9 }, drift: 0, alert: false }]);
    // Then the model's behaviour switches: most answers are yes.
    for (let i = 0; i < 20; i += 1) core.captureTap.offer(answering(i % 4 === 0 ? 0.3 : 0.9));
    await core.captureTap.flush();
    now += 60_000;
    // The last hour holds the 20 steady answers (2 yes) and the 20 since the switch (15 yes): 17 of 40.
    const switched = await core.handlers['captures.monitor']({ rule_id: made.id, window: '1h' });
    expect(switched.window.requests).toBe(40);
    expect(switched.questions[0]).toMatchObject({ shares: { yes: 17 / 40 }, alert: true });
    expect(switched.questions[0]!.drift).toBeCloseTo(17 / 40 - 0.1, 10);
    await expect(core.handlers['captures.monitor']({ rule_id: 'capture-nope', window: '1h' })).rejects.toThrow('No capture rule with id "capture-nope"');
  });

  it('deletes what a rule captured once its retention has passed, items added later stay, and the deletion is in the audit log', async () => {
    const core = await open();
    const made = await rule(core, { name: 'a week', retention_days: 7 });
    core.captureTap.offer(call());
    await core.captureTap.flush();
    now += 3 * DAY;
    core.captureTap.offer(call());
    await core.captureTap.flush();
    now += 5 * DAY;
    expect(await core.captures.expire()).toBe(1);
    expect(await core.captures.expire()).toBe(0);
    expect((await core.datasets.get(made.dataset_id)).items).toBe(1);
    const audit = await core.handlers['audit.list']({ offset: 0, limit: 5, target_kind: 'capture' });
    expect(audit.entries[0]).toMatchObject({ action: 'capture.expire', actor: { kind: 'system' }, target: { id: made.id }, details: { items: 1 } });
  });
});
