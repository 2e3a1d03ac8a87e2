import { sqliteOf } from '../../test-support/sqlite-of';
import Database from 'libsql';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../store/sqlite/database';
import { MIGRATIONS } from '../store/sqlite/migrations';
import { staleReason } from '../boxes/box-review';
import { pngWithRect } from '../../test-support/images';
import { tempCore, tempDir, type TempCore, AS_DESKTOP } from '../../test-support/temp-core';
import { until } from '../../test-support/until';
import { storedRun } from '../../test-support/stored-run';

const CARD = { top: 40 / 300, left: 120 / 400, bottom: 130 / 300, right: 320 / 400 };
const OTHER = { top: 0.5, left: 0.5, bottom: 0.9, right: 0.9 };
const image = (name: string) => ({ name, data_url: pngWithRect(400, 300, { x: 120, y: 40, w: 200, h: 90 }) });
const boxAnswer = (b: typeof CARD) => JSON.stringify({ card: { type: 'box', box: b } });

/** Verdicts per model, and stale when the answer they judged was replaced by a newer one. */
describe('box verdicts per model', () => {
  let env: TempCore;
  beforeAll(async () => {
    env = await tempCore({ sandbox: { seed: 5, failures: false, timeScale: 0 } });
  });
  afterAll(() => env.cleanup());

  /** A finished run of two models over the dataset, stored as the runner stores results. */
  const twoModelRun = (datasetId: string, id: string, createdAt: string, boxes: [typeof CARD, typeof CARD]) =>
    storedRun(env, {
      id,
      datasetId,
      createdAt,
      request: { model: 'acme/one', state: '', questions: { card: { type: 'box', instructions: 'the card' } } },
      variants: [{ model: 'acme/one' }, { model: 'acme/one', label: 'eu' }],
      answers: boxes.map((b, variant) => ({ variant, position: 0, answers: boxAnswer(b) })),
    });

  it("keeps one verdict per model: judging one model's answer leaves the other's unreviewed", async () => {
    const h = env.core.handlers;
    const ds = await h['boxReview.addImages']({ name: 'two models', images: [image('a.png')] }, AS_DESKTOP);
    await twoModelRun(ds.id, 'run-two', '2026-01-01T00:00:00.000Z', [CARD, OTHER]);
    const judged = await h['boxReview.update']({ dataset_id: ds.id, position: 0, run_id: 'run-two', variant: 1, verdict: 'rejected', note: 'misses the card' });
    expect(judged).toMatchObject({ model: 'acme/one (eu)', verdict: 'rejected', verdict_model: 'acme/one (eu)', note: 'misses the card', stale: false });
    const first = (await h['boxReview.items']({ dataset_id: ds.id, run_id: 'run-two', variant: 0 }))[0]!;
    expect(first).toMatchObject({ model: 'acme/one', verdict: null, note: '', stale: false });
    await h['boxReview.update']({ dataset_id: ds.id, position: 0, run_id: 'run-two', variant: 0, verdict: 'accepted' });
    const rows = (await env.core.storage.boxes.allVerdicts(ds.id)).sort((a, b) => (a.model < b.model ? -1 : 1));
    expect(rows.map((r) => [r.model, r.verdict])).toEqual([
      ['acme/one', 'accepted'],
      ['acme/one (eu)', 'rejected'],
    ]);
    expect((await h['boxReview.items']({ dataset_id: ds.id, run_id: 'run-two', variant: 1 }))[0]).toMatchObject({ verdict: 'rejected', stale: false });
  });

  it('marks a verdict stale when a newer answer of the same model replaced the one judged, saying whether its boxes changed', async () => {
    const h = env.core.handlers;
    const ds = await h['boxReview.addImages']({ name: 're-run', images: [image('b.png')] }, AS_DESKTOP);
    await twoModelRun(ds.id, 'run-old', '2026-01-01T00:00:00.000Z', [CARD, CARD]);
    await h['boxReview.update']({ dataset_id: ds.id, position: 0, run_id: 'run-old', variant: 0, verdict: 'accepted' });
    await h['boxReview.update']({ dataset_id: ds.id, position: 0, run_id: 'run-old', variant: 1, verdict: 'accepted' });
    // A later run answers the first model with the same box, the second with another.
    await twoModelRun(ds.id, 'run-new', '2026-02-01T00:00:00.000Z', [CARD, OTHER]);
    const same = (await h['boxReview.items']({ dataset_id: ds.id, run_id: 'run-new', variant: 0 }))[0]!;
    expect(same).toMatchObject({ verdict: 'accepted', stale: true, stale_reason: 'rerun_unchanged' });
    const moved = (await h['boxReview.items']({ dataset_id: ds.id, run_id: 'run-new', variant: 1 }))[0]!;
    expect(moved).toMatchObject({ verdict: 'accepted', stale: true, stale_reason: 'rerun_changed' });
    // Looking back at the old run still says it was run again since.
    expect((await h['boxReview.items']({ dataset_id: ds.id, run_id: 'run-old', variant: 0 }))[0]).toMatchObject({
      stale: true,
      stale_reason: 'rerun_unchanged',
    });
    // Confirming on the newest answer makes it current; the old run's boxes then differ from it only for the moved one.
    await h['boxReview.update']({ dataset_id: ds.id, position: 0, run_id: 'run-new', variant: 0, verdict: 'accepted' });
    await h['boxReview.update']({ dataset_id: ds.id, position: 0, run_id: 'run-new', variant: 1, verdict: 'rejected' });
    expect((await h['boxReview.items']({ dataset_id: ds.id, run_id: 'run-new', variant: 0 }))[0]).toMatchObject({ stale: false, stale_reason: null });
    expect((await h['boxReview.items']({ dataset_id: ds.id, run_id: 'run-old', variant: 0 }))[0]).toMatchObject({ stale: false });
    expect((await h['boxReview.items']({ dataset_id: ds.id, run_id: 'run-old', variant: 1 }))[0]).toMatchObject({
      verdict: 'rejected',
      stale: true,
      stale_reason: 'answers_differ',
    });
  });

  it('marks a verdict stale when the truth it was given against is edited', async () => {
    const h = env.core.handlers;
    const ds = await h['boxReview.addImages']({ name: 'truth', images: [image('c.png')] }, AS_DESKTOP);
    await h['boxReview.update']({ dataset_id: ds.id, position: 0, run_id: null, variant: 0, truth: [{ label: 'card', ...CARD }] });
    await twoModelRun(ds.id, 'run-truth', '2026-01-01T00:00:00.000Z', [CARD, CARD]);
    await h['boxReview.update']({ dataset_id: ds.id, position: 0, run_id: 'run-truth', variant: 0, verdict: 'accepted' });
    const edited = await h['boxReview.update']({ dataset_id: ds.id, position: 0, run_id: 'run-truth', variant: 0, truth: [{ label: 'card', ...OTHER }] });
    expect(edited).toMatchObject({ verdict: 'accepted', stale: true, stale_reason: 'truth_changed' });
  });

  it('runs one image again through the run: only that item and model are sent, and the verdict on it turns stale', async () => {
    const h = env.core.handlers;
    const ds = await h['boxReview.addImages']({ name: 'run on image', images: [image('x.png'), image('y.png')] }, AS_DESKTOP);
    const request = { model: 'sandbox/baseline-vision', state: '', questions: { card: { type: 'box' as const, instructions: 'the card' } } };
    const run = await h['evals.start']({ request, dataset_id: ds.id, variants: [{ model: 'sandbox/baseline-vision' }], concurrency: 2 });
    await until(
      () => h['evals.get']({ id: run.id }),
      (r) => r.status !== 'running',
    );
    await h['boxReview.update']({ dataset_id: ds.id, position: 0, run_id: run.id, variant: 0, verdict: 'accepted' });
    await h['boxReview.update']({ dataset_id: ds.id, position: 1, run_id: run.id, variant: 0, verdict: 'accepted' });
    const before = await env.core.storage.evalResults.results(run.id);
    await new Promise((r) => setTimeout(r, 5));
    const again = await h['boxReview.runImage']({ dataset_id: ds.id, position: 1, run_id: run.id });
    expect(again.status).toBe('running');
    // Refused while it sends, and for another dataset's run, before anything is sent.
    await expect(h['boxReview.runImage']({ dataset_id: ds.id, position: 1, run_id: run.id })).rejects.toThrow(/still sending/);
    const finished = await until(
      () => h['evals.get']({ id: run.id }),
      (r) => r.status !== 'running',
    );
    expect(finished).toMatchObject({ status: 'done', done: 2, total: 2, failed: 0 });
    const after = await env.core.storage.evalResults.results(run.id);
    expect(after[0]!.answered_at).toBe(before[0]!.answered_at);
    expect(after[1]!.answered_at! > before[1]!.answered_at!).toBe(true);
    const items = await h['boxReview.items']({ dataset_id: ds.id, run_id: run.id, variant: 0 });
    // The simulated model gives the same box for the same image: re-run, answer unchanged.
    expect(items.map((i) => [i.name, i.stale, i.stale_reason])).toEqual([
      ['x.png', false, null],
      ['y.png', true, 'rerun_unchanged'],
    ]);
    const other = await h['boxReview.addImages']({ name: 'elsewhere', images: [image('z.png')] }, AS_DESKTOP);
    await expect(h['boxReview.runImage']({ dataset_id: other.id, position: 0, run_id: run.id })).rejects.toThrow(/over another dataset/);
    await expect(h['boxReview.runImage']({ dataset_id: ds.id, position: 0, run_id: run.id, variants: [3] })).rejects.toThrow(/no model at place 3/);
  });
});

describe('one image sent again', () => {
  it('leaves a paused run paused, with only that item answered, and resumable', async () => {
    const env = await tempCore({ sandbox: { seed: 5, failures: false, timeScale: 0 } });
    try {
      const h = env.core.handlers;
      const ds = await h['boxReview.addImages']({ name: 'paused', images: [image('p.png'), image('q.png'), image('r.png')] }, AS_DESKTOP);
      const request = { model: 'sandbox/baseline-vision', state: '', questions: { card: { type: 'box', instructions: 'the card' } } };
      await storedRun(env, {
        id: 'held',
        datasetId: ds.id,
        createdAt: '2026-01-01T00:00:00.000Z',
        request,
        variants: [{ model: 'sandbox/baseline-vision' }],
        answers: [],
        status: 'paused',
      });
      await h['boxReview.runImage']({ dataset_id: ds.id, position: 2, run_id: 'held' });
      const after = await until(
        () => h['evals.get']({ id: 'held' }),
        (r) => r.status !== 'running',
      );
      expect(after).toMatchObject({ status: 'paused', done: 1, total: 3 });
      expect((await env.core.storage.evalResults.results('held')).map((r) => r.position)).toEqual([2]);
      await h['evals.resume']({ id: 'held' });
      expect(
        await until(
          () => h['evals.get']({ id: 'held' }),
          (r) => r.status !== 'running',
        ),
      ).toMatchObject({ status: 'done', done: 3 });
    } finally {
      await env.cleanup();
    }
  });
});

describe('stale reasons', () => {
  const judged = { answers: '{"card":1}', truth: '[]', run_id: 'r1', variant: 0, judged_at: '2026-01-01T00:00:00.000Z' };
  it('prefer a newer answer over edited truth, and need neither when nothing changed', () => {
    expect(staleReason(judged, { answers: '{"card":1}', truth: '[]', newest: { run_id: 'r1', variant: 0, at: judged.judged_at, answers: '{}' } })).toBeNull();
    expect(staleReason(judged, { answers: '{"card":1}', truth: '[1]', newest: undefined })).toBe('truth_changed');
    expect(staleReason(judged, { answers: '{"card":2}', truth: '[]', newest: undefined })).toBe('answers_differ');
    expect(
      staleReason(judged, { answers: '{"card":1}', truth: '[1]', newest: { run_id: 'r2', variant: 0, at: '2026-01-02T00:00:00.000Z', answers: '{}' } }),
    ).toBe('rerun_changed');
    // An older answer of another run is not a re-run.
    expect(
      staleReason(judged, { answers: '{"card":1}', truth: '[]', newest: { run_id: 'r0', variant: 0, at: '2025-12-31T00:00:00.000Z', answers: '{}' } }),
    ).toBeNull();
    // A verdict whose answer's time is not known is stale once any run has answered.
    expect(
      staleReason(
        { ...judged, run_id: null, judged_at: null, truth: null },
        { answers: '{"card":1}', truth: '[9]', newest: { run_id: 'r0', variant: 0, at: '2025-12-31T00:00:00.000Z', answers: '{}' } },
      ),
    ).toBe('rerun_changed');
  });
});

describe('verdicts kept before they were per model', () => {
  it('are attached to the model of the run they judged, or to no model, and keep working', () => {
    const dir = tempDir();
    try {
      const path = join(dir.path, 'verdict.sqlite');
      // The data file as it stood just before verdicts became per model.
      const before = MIGRATIONS.findIndex((m) => m.includes('CREATE TABLE box_verdicts_by_model'));
      expect(before).toBeGreaterThan(0);
      const raw = new Database(path);
      for (const m of MIGRATIONS.slice(0, before)) raw.exec(m);
      raw.exec(`PRAGMA user_version = ${before}`);
      raw.exec("INSERT INTO datasets (id, name, status, item_count, created_at) VALUES ('ds', 'old', 'ready', 2, '2026-01-01T00:00:00.000Z')");
      raw.exec("INSERT INTO dataset_items (dataset_id, position, id, state, expected) VALUES ('ds', 0, 'a.png', '[]', '{}'), ('ds', 1, 'b.png', '[]', '{}')");
      raw.exec(
        `INSERT INTO eval_runs (id, name, dataset_id, set_key, request, variants, concurrency, status, created_at) VALUES ('r', 'r', 'ds', 'k', '{}', '[{"model":"acme/one"},{"model":"acme/two","label":"eu"}]', 1, 'done', '2026-01-02T00:00:00.000Z')`,
      );
      raw.exec(`INSERT INTO box_verdicts (dataset_id, item_id, verdict, note, run_id, variant, answers, updated_at) VALUES
        ('ds', 'a.png', 'accepted', 'fine', 'r', 1, '{"card":{"top":0.1,"left":0.1,"bottom":0.5,"right":0.5}}', '2026-01-03T00:00:00.000Z'),
        ('ds', 'b.png', 'rejected', 'off', NULL, 0, '{}', '2026-01-03T00:00:00.000Z')`);
      raw.close();

      const store = Store.open(path);
      try {
        const rows = store.all<{ item_id: string; question: string; model: string; verdict: string; note: string; run_id: string | null; variant: number }>(
          'SELECT item_id, question, model, verdict, note, run_id, variant FROM box_verdicts ORDER BY item_id',
        );
        expect(rows).toEqual([
          { item_id: 'a.png', question: '', model: 'acme/two (eu)', verdict: 'accepted', note: 'fine', run_id: 'r', variant: 1 },
          { item_id: 'b.png', question: '', model: '', verdict: 'rejected', note: 'off', run_id: null, variant: 0 },
        ]);
        // Results stored before say nothing of when they were answered.
        expect(store.get<{ n: number }>("SELECT COUNT(*) AS n FROM pragma_table_info('eval_results') WHERE name = 'answered_at'")!.n).toBe(1);
      } finally {
        store.close();
      }
    } finally {
      dir.cleanup();
    }
  });

  it('show as "model unknown" under any model until that model is judged', async () => {
    const env = await tempCore({ sandbox: { seed: 5, failures: false, timeScale: 0 } });
    try {
      const h = env.core.handlers;
      const ds = await h['boxReview.addImages']({ name: 'unknown', images: [image('u.png')] }, AS_DESKTOP);
      await env.core.storage.boxes.putVerdicts(ds.id, [
        {
          item_id: 'u.png',
          question: '',
          model: '',
          verdict: 'accepted',
          note: 'from before',
          answers: '{}',
          truth: null,
          run_id: null,
          variant: 0,
          answered_at: null,
          updated_at: '2026-01-01T00:00:00.000Z',
        },
      ]);
      expect((await h['boxReview.items']({ dataset_id: ds.id, run_id: null, variant: 0 }))[0]).toMatchObject({
        verdict: 'accepted',
        verdict_model: null,
        note: 'from before',
        stale: false,
      });
      await storedRun(env, {
        id: 'ru',
        datasetId: ds.id,
        createdAt: '2026-02-01T00:00:00.000Z',
        request: {},
        variants: [{ model: 'acme/one' }],
        answers: [{ variant: 0, position: 0, answers: boxAnswer(CARD) }],
      });
      expect((await h['boxReview.items']({ dataset_id: ds.id, run_id: 'ru', variant: 0 }))[0]).toMatchObject({
        verdict: 'accepted',
        verdict_model: null,
        stale: true,
        stale_reason: 'rerun_changed',
      });
      // Judging the model's answer gives it a verdict of its own, with the note carried over.
      expect(await h['boxReview.update']({ dataset_id: ds.id, position: 0, run_id: 'ru', variant: 0, verdict: 'rejected' })).toMatchObject({
        verdict: 'rejected',
        verdict_model: 'acme/one',
        note: 'from before',
        stale: false,
      });
      expect((await h['boxReview.items']({ dataset_id: ds.id, run_id: null, variant: 0 }))[0]).toMatchObject({ verdict: 'accepted', verdict_model: null });
    } finally {
      await env.cleanup();
    }
  });
});

describe('verdicts set per question, never toggled', () => {
  it('rejects one question’s answer and keeps the other accepted; the same verdict again stays; a note goes with its verdict', async () => {
    const env = await tempCore({ sandbox: { seed: 5, failures: false, timeScale: 0 } });
    try {
      const h = env.core.handlers;
      const s = sqliteOf(env.core);
      const ds = await h['boxReview.addImages']({ name: 'per question', images: [image('shelf.png')] }, AS_DESKTOP);
      s.run(
        "INSERT INTO eval_runs (id, name, dataset_id, set_key, request, variants, concurrency, status, created_at) VALUES ('r', 'r', ?, 'k', ?, ?, 1, 'done', '2026-01-01T00:00:00.000Z')",
        [
          ds.id,
          JSON.stringify({
            model: 'acme/one',
            state: '',
            questions: { card: { type: 'box', instructions: 'card' }, badge: { type: 'box', instructions: 'badge' } },
          }),
          JSON.stringify([{ model: 'acme/one' }]),
        ],
      );
      s.run("INSERT INTO eval_results (run_id, variant, position, ok, answers, latency_ms) VALUES ('r', 0, 0, 1, ?, 1)", [
        JSON.stringify({ card: { type: 'box', box: CARD }, badge: { type: 'box', box: OTHER } }),
      ]);
      const at = { dataset_id: ds.id, position: 0, run_id: 'r', variant: 0 };
      // The whole image accepted, with a note.
      await h['boxReview.update']({ ...at, verdict: 'accepted', note: 'both look right' });
      // Then the badge's answer rejected alone: the card keeps the whole image's verdict and note.
      const split = await h['boxReview.update']({ ...at, question: 'badge', verdict: 'rejected', note: 'badge box far off' });
      expect(split.verdicts).toMatchObject({
        card: { verdict: 'accepted', note: 'both look right', whole_image: false },
        badge: { verdict: 'rejected', note: 'badge box far off', whole_image: false },
      });
      expect(split.verdict).toBe('rejected');
      // Reject pressed again: still rejected, the note kept.
      const again = await h['boxReview.update']({ ...at, question: 'badge', verdict: 'rejected' });
      expect(again.verdicts['badge']).toMatchObject({ verdict: 'rejected', note: 'badge box far off' });
      // Accepted instead: the rejection and its note move to the history; the new verdict starts without a note.
      const changed = await h['boxReview.update']({ ...at, question: 'badge', verdict: 'accepted' });
      expect(changed.verdicts['badge']).toMatchObject({ verdict: 'accepted', note: '' });
      expect(changed.history[0]).toMatchObject({ question: 'badge', verdict: 'rejected', note: 'badge box far off' });
      expect(changed.verdict).toBe('accepted');
      // Clear is its own action: no verdict, and no note left behind on the answer.
      const cleared = await h['boxReview.update']({ ...at, question: 'badge', verdict: null });
      expect(cleared.verdicts['badge']).toBeUndefined();
      expect(cleared.verdict).toBeNull();
      await expect(h['boxReview.update']({ ...at, question: 'badge', note: 'orphan' })).rejects.toThrow(
        /has no verdict yet; a note is kept with the verdict it explains/,
      );
      await expect(h['boxReview.update']({ ...at, question: 'mug', verdict: 'accepted' })).rejects.toThrow(/no answer or truth for "mug"/);
      // Clearing the whole image clears every question.
      const none = await h['boxReview.update']({ ...at, verdict: null });
      expect(none.verdicts).toEqual({});
      // Newest first: the card (cleared with the image), the badge's acceptance (cleared), its rejection (replaced), and its acceptance with the whole image (replaced by the rejection).
      expect(none.history.map((x) => [x.question, x.verdict, x.note])).toEqual([
        ['card', 'accepted', 'both look right'],
        ['badge', 'accepted', ''],
        ['badge', 'rejected', 'badge box far off'],
        ['badge', 'accepted', 'both look right'],
      ]);
    } finally {
      await env.cleanup();
    }
  });
});
