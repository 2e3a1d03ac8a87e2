import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempCore, type TempCore, AS_DESKTOP } from '../../test-support/temp-core';
import { until } from '../../test-support/until';

const request = {
  model: 'sandbox/baseline-text',
  state: 'The parcel arrived two days late.',
  questions: {
    late: { type: 'noul' as const, instructions: 'Did the parcel arrive late?' },
    topic: { type: 'choice' as const, instructions: 'Topic?', criteria: { delivery: 'late parcel', billing: 'invoice' } },
  },
};

describe('question sets and runs', () => {
  let env: TempCore;
  beforeAll(async () => {
    env = await tempCore({ sandbox: { seed: 2, failures: false, timeScale: 0.05 } });
  });
  afterAll(() => env.cleanup());

  it('saves, lists, deletes with undo', async () => {
    const h = env.core.handlers;
    const saved = await h['sets.save']({ name: 'Delivery triage', request }, AS_DESKTOP);
    expect(saved).toMatchObject({ name: 'Delivery triage', model: 'sandbox/baseline-text', question_count: 2 });
    expect((await h['sets.get']({ id: saved.id })).request).toEqual(request);
    await h['sets.delete']({ id: saved.id }, AS_DESKTOP);
    expect((await h['sets.list']({})).map((s) => s.id)).not.toContain(saved.id);
    await h['sets.restore']({ id: saved.id }, AS_DESKTOP);
    expect((await h['sets.list']({})).map((s) => s.id)).toContain(saved.id);
    const renamed = await h['sets.save']({ id: saved.id, name: 'Triage v2', request: { ...request, model: 'sandbox/baseline-vision' } }, AS_DESKTOP);
    expect(renamed).toMatchObject({ id: saved.id, name: 'Triage v2', model: 'sandbox/baseline-vision' });
  });

  it('runs a set to the end, keeps it in history with its answers and how they were measured', async () => {
    const h = env.core.handlers;
    const started = await h['runs.start']({ request, label: 'first', set_id: 'set-x' });
    expect(started.status).toBe('running');
    const done = await until(
      () => h['runs.get']({ id: started.id }),
      (r) => r.status !== 'running',
    );
    expect(done.status).toBe('done');
    expect(done.answered.sort()).toEqual(['late', 'topic']);
    expect(done.methods).toEqual({ late: expect.stringMatching(/logprobs|native/), topic: expect.stringMatching(/logprobs|native/) });
    const history = await h['runs.list']({ set_id: 'set-x', limit: 10 });
    expect(history[0]).toMatchObject({ id: started.id, status: 'done', label: 'first', request });
    expect((history[0]!.response as { answers: Record<string, unknown> }).answers['topic']).toMatchObject({ type: 'choice', choice: 'delivery' });
  });

  it('a cancelled run says so and keeps no answer', async () => {
    await env.core.settings.update({ sandbox: 'on' });
    const slow = await tempCore({ sandbox: { seed: 9, failures: false, timeScale: 20 } });
    try {
      const started = await slow.core.handlers['runs.start']({ request: { ...request, provider: { order: ['sandbox-bargain'] } } });
      await slow.core.handlers['runs.cancel']({ id: started.id });
      const after = await until(
        () => slow.core.handlers['runs.get']({ id: started.id }),
        (r) => r.status !== 'running',
      );
      expect(after.status).toBe('cancelled');
      expect(after.response).toBeNull();
      const stored = await slow.core.handlers['runs.list']({ status: 'cancelled', limit: 5 });
      expect(stored.map((r) => r.id)).toContain(started.id);
    } finally {
      await slow.cleanup();
    }
  });
});

describe('backup', () => {
  it('exports everything but secrets and restores it into a fresh data directory', async () => {
    const from = await tempCore();
    const to = await tempCore();
    try {
      await from.core.handlers['settings.update']({ theme: 'dark', trace_destinations: ['http://127.0.0.1:4318'] });
      await from.core.handlers['sets.save']({ name: 'Triage', request }, AS_DESKTOP);
      const image = await from.core.handlers['boxes.add']({ name: 'a.png', data_url: 'data:image/png;base64,AAAA' });
      await from.core.handlers['boxes.update']({ id: image.id, truth: [{ top: 0.1, left: 0.1, bottom: 0.5, right: 0.5 }], verdict: 'accepted', note: 'ok' });
      await from.core.handlers['providerKeys.set']({ provider: 'openai', key: 'sk-never-in-a-backup' });
      const backup = await from.core.handlers['backup.export']({});
      expect(JSON.stringify(backup)).not.toContain('sk-never-in-a-backup');

      expect(await to.core.handlers['backup.import']({ backup })).toEqual({ question_sets: 1, box_items: 1, catalog_endpoints: 0, datasets: 0 });
      expect((await to.core.handlers['settings.get']({})).theme).toBe('dark');
      expect((await to.core.handlers['sets.list']({})).map((s) => s.name)).toEqual(['Triage']);
      expect((await to.core.handlers['boxes.list']({}))[0]).toMatchObject({ name: 'a.png', verdict: 'accepted', note: 'ok', truth: [{ top: 0.1 }] });
    } finally {
      await from.cleanup();
      await to.cleanup();
    }
  });

  it('a backup with one bad part changes nothing', async () => {
    const env = await tempCore();
    try {
      const backup = await env.core.handlers['backup.export']({});
      const bad = {
        ...backup,
        settings: { ...backup.settings, theme: 'dark' as const },
        question_sets: [{ name: 'x', request: { model: 'a/b', state: 'x', questions: {} } }],
      };
      await expect(env.core.handlers['backup.import']({ backup: bad })).rejects.toThrow(/question_sets\[0\]\.request: questions: at least 1 question/);
      expect((await env.core.handlers['settings.get']({})).theme).toBe('system');
    } finally {
      await env.cleanup();
    }
  });
});

/** A set naming a cascade preset is run in stages, its own model first, on the simulated providers. */
describe('a question set with a cascade preset', () => {
  let env: TempCore;
  const late = { model: 'sandbox/cheap-mini', state: 'The parcel arrived two days late.', questions: { late: request.questions.late } };
  const topic = { model: 'sandbox/cheap-mini', state: 'The parcel arrived two days late.', questions: { topic: request.questions.topic } };
  beforeAll(async () => {
    env = await tempCore({ sandbox: { seed: 2, failures: false, timeScale: 0 } });
    const h = env.core.handlers;
    await h['cascadePresets.save']({ name: 'always', model: 'sandbox/sharp-large', when: { probabilityBetween: [0, 1] } }, AS_DESKTOP);
    await h['cascadePresets.save']({ name: 'never', model: 'sandbox/sharp-large', when: { confidenceBelow: 0 } }, AS_DESKTOP);
  });
  afterAll(() => env.cleanup());

  const runOf = async (setId: string) => {
    const h = env.core.handlers;
    const set = await h['sets.get']({ id: setId });
    const started = await h['runs.start']({ request: set.request, set_id: setId, label: set.name, ...(set.cascade ? { cascade: set.cascade } : {}) });
    return until(
      () => h['runs.get']({ id: started.id }),
      (r) => r.status !== 'running',
    );
  };

  it('escalates when the condition holds: the second model answers, and both stages are in the cost recorded', async () => {
    const h = env.core.handlers;
    const saved = await h['sets.save']({ name: 'Late, cascaded', request: late, cascade: 'always' }, AS_DESKTOP);
    expect(await h['sets.get']({ id: saved.id })).toMatchObject({ request: late, cascade: 'always' });
    const done = await runOf(saved.id);
    expect(done.status).toBe('done');
    expect(done.model).toBe('sandbox/cheap-mini');
    const response = done.response as {
      provider: string;
      usage: { cost: number };
      cascade: { answered_by: string; triggered_by: string[]; stages: { model: string; usage: { cost: number } }[] };
    };
    expect(response.cascade.answered_by).toBe('sandbox/sharp-large');
    expect(response.cascade.triggered_by).toEqual(['late']);
    expect(response.cascade.stages.map((s) => s.model)).toEqual(['sandbox/cheap-mini', 'sandbox/sharp-large']);
    expect(response.usage.cost).toBeCloseTo(response.cascade.stages[0]!.usage.cost + response.cascade.stages[1]!.usage.cost, 12);
    // Kept so in the history too.
    const [stored] = await h['runs.list']({ set_id: saved.id, limit: 1 });
    expect((stored!.response as typeof response).cascade.answered_by).toBe('sandbox/sharp-large');
  });

  it('keeps the first answer when the condition never holds', async () => {
    const h = env.core.handlers;
    const saved = await h['sets.save']({ name: 'Topic, cascaded', request: topic, cascade: 'never' }, AS_DESKTOP);
    const done = await runOf(saved.id);
    expect(done.status).toBe('done');
    const cascade = (done.response as { cascade: { answered_by: string; stages: unknown[] } }).cascade;
    expect(cascade.answered_by).toBe('sandbox/cheap-mini');
    expect(cascade.stages).toHaveLength(1);
  });

  it('refuses to save a set naming a preset that does not exist, naming the field and the preset', async () => {
    await expect(env.core.handlers['sets.save']({ name: 'Nope', request: late, cascade: 'missing' }, AS_DESKTOP)).rejects.toThrow(
      /cascade: no cascade preset named "missing"/,
    );
  });

  it('a set whose preset was deleted refuses to run, naming the preset, and runs nothing', async () => {
    const h = env.core.handlers;
    await h['cascadePresets.save']({ name: 'short-lived', model: 'sandbox/sharp-large', when: { probabilityBetween: [0, 1] } }, AS_DESKTOP);
    const saved = await h['sets.save']({ name: 'Orphaned', request: late, cascade: 'short-lived' }, AS_DESKTOP);
    await h['cascadePresets.delete']({ name: 'short-lived' }, AS_DESKTOP);
    await expect(runOf(saved.id)).rejects.toThrow(/cascade preset "short-lived" no longer exists/);
    expect(await h['runs.list']({ set_id: saved.id, limit: 10 })).toEqual([]);
  });
});
