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
