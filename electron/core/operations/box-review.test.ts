import { sqliteOf } from '../../test-support/sqlite-of';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngWithRect } from '../../test-support/images';
import { tempCore, type TempCore, AS_DESKTOP } from '../../test-support/temp-core';
import { until } from '../../test-support/until';

const CARD = { top: 40 / 300, left: 120 / 400, bottom: 130 / 300, right: 320 / 400 };
const image = (name: string) => ({ name, data_url: pngWithRect(400, 300, { x: 120, y: 40, w: 200, h: 90 }) });
const BOX_SET = { model: 'sandbox/baseline-vision', state: '', questions: { card: { type: 'box' as const, instructions: 'the card' } } };

/** Box review over datasets, through the handlers, with real evaluation runs on the simulated providers. */
describe('box review of a dataset', () => {
  let env: TempCore;
  beforeAll(async () => {
    env = await tempCore({ sandbox: { seed: 5, failures: false, timeScale: 0 } });
  });
  afterAll(() => env.cleanup());

  it('makes a dataset of images added a few at a time, listed for review with their sizes and no image data', async () => {
    const h = env.core.handlers;
    const first = await h['boxReview.addImages']({ name: 'shelves', images: [image('a.png'), image('b.png')] }, AS_DESKTOP);
    const second = await h['boxReview.addImages']({ dataset_id: first.id, name: 'shelves', images: [image('a.png')] }, AS_DESKTOP);
    expect(second).toMatchObject({ id: first.id, items: 3 });
    await h['datasets.import'](
      {
        name: 'texts',
        format: 'jsonl',
        content: '{"id":"t","state":"hello","expected":{}}\n',
        questions: { ok: { type: 'noul', instructions: 'ok?' } },
        valid_only: false,
        take_suggestions: false,
      },
      AS_DESKTOP,
    );
    expect((await h['boxReview.datasets']({})).map((d) => d.name)).toEqual(['shelves']);
    const items = await h['boxReview.items']({ dataset_id: first.id, run_id: null, variant: 0 });
    expect(items.map((i) => [i.id, i.name, i.width, i.height, i.data_url])).toEqual([
      ['0', 'a.png', 400, 300, ''],
      ['1', 'b.png', 400, 300, ''],
      ['2', 'a.png (2)', 400, 300, ''],
    ]);
    expect((await h['boxReview.image']({ dataset_id: first.id, position: 1 })).data_url).toBe(image('b.png').data_url);
    await expect(h['boxReview.image']({ dataset_id: first.id, position: 9 })).rejects.toThrow(/No item at position 9/);
    // Bad input loses nothing and adds nothing.
    const before = (await h['datasets.list']({})).length;
    await expect(h['boxReview.addImages']({ dataset_id: 'ds-gone', name: 'x', images: [image('c.png')] }, AS_DESKTOP)).rejects.toThrow(
      /No dataset with id "ds-gone"/,
    );
    expect((await h['datasets.list']({})).length).toBe(before);
  });

  it('opens a dataset of images imported in Evaluations, measuring each image once', async () => {
    const h = env.core.handlers;
    const questions = { card: { type: 'box' as const, instructions: 'the card' } };
    const labels = { format: 'jsonl' as const, content: `${JSON.stringify({ id: 'p.png', expected: { card: CARD } })}\n` };
    const imported = await h['datasets.importImages'](
      {
        name: 'from evaluations',
        images: [image('p.png'), image('q.png')],
        labels,
        questions,
        valid_only: false,
        take_suggestions: false,
      },
      AS_DESKTOP,
    );
    const id = imported.dataset!.id;
    expect((await h['boxReview.datasets']({})).map((d) => d.name)).toContain('from evaluations');
    const count = () => sqliteOf(env.core).get<{ n: number }>('SELECT COUNT(*) AS n FROM box_image_sizes WHERE dataset_id = ?', [id])!.n;
    expect(count()).toBe(0);
    const items = await h['boxReview.items']({ dataset_id: id, run_id: null, variant: 0 });
    expect(items.map((i) => [i.name, i.width, i.height, i.truth])).toEqual([
      ['p.png', 400, 300, [{ label: 'card', ...CARD }]],
      ['q.png', 400, 300, []],
    ]);
    expect(count()).toBe(2);
    // Later listings read the sizes kept, not the images.
    sqliteOf(env.core).run('UPDATE box_image_sizes SET width = 401 WHERE dataset_id = ?', [id]);
    expect((await h['boxReview.items']({ dataset_id: id, run_id: null, variant: 0 }))[0]!.width).toBe(401);
  });

  it('writes drawn truth as expected answers, runs an evaluation over the dataset and reviews its answers', async () => {
    const h = env.core.handlers;
    const ds = await h['boxReview.addImages']({ name: 'cards', images: [image('one.png'), image('two.png')] }, AS_DESKTOP);
    await h['datasets.updateExpected'](
      {
        dataset_id: ds.id,
        position: 0,
        expected: { seen: true },
        questions: { seen: { type: 'noul', instructions: 'seen?' } },
      },
      AS_DESKTOP,
    );
    const drawn = await h['boxReview.update']({
      dataset_id: ds.id,
      position: 0,
      run_id: null,
      variant: 0,
      truth: [
        { label: 'card', ...CARD },
        { label: 'card', top: 0, left: 0, bottom: 0.1, right: 0.1 },
      ],
    });
    expect(drawn.truth).toEqual([{ label: 'card', ...CARD }]);
    await h['boxReview.update']({ dataset_id: ds.id, position: 1, run_id: null, variant: 0, truth: [{ label: 'card', ...CARD }] });
    // The truth is the dataset's own expected answer; answers to other questions stay.
    const { items } = await h['datasets.items']({ dataset_id: ds.id, offset: 0, limit: 10 });
    expect(items[0]!.expected).toEqual({ seen: true, card: CARD });

    const run = await h['evals.start']({ request: BOX_SET, dataset_id: ds.id, variants: [{ model: 'sandbox/baseline-vision' }], concurrency: 2 });
    const done = await until(
      () => h['evals.get']({ id: run.id }),
      (r) => r.status !== 'running',
    );
    expect(done).toMatchObject({ status: 'done', done: 2, failed: 0 });
    const reviewed = await h['boxReview.items']({ dataset_id: ds.id, run_id: run.id, variant: 0 });
    expect(reviewed[0]).toMatchObject({ model: 'sandbox/baseline-vision', run_id: run.id, verdict: null, stale: false });
    expect(Object.keys(reviewed[0]!.answers)).toEqual(['card']);
    // The run's report scores the same truth: the evaluation and the review agree.
    const report = await h['evals.report']({ id: run.id });
    expect(JSON.stringify(report)).toMatch(/"mean_iou":0\.[89]/);

    const judged = await h['boxReview.update']({ dataset_id: ds.id, position: 0, run_id: run.id, variant: 0, verdict: 'accepted', note: 'tight' });
    expect(judged).toMatchObject({ verdict: 'accepted', note: 'tight', stale: false });
    await expect(h['boxReview.items']({ dataset_id: 'nope', run_id: null, variant: 0 })).rejects.toThrow(/No dataset/);
  });

  it('marks a verdict stale when the item is run again, saying whether the answer changed', async () => {
    const h = env.core.handlers;
    const ds = await h['boxReview.addImages']({ name: 'stale', images: [image('x.png')] }, AS_DESKTOP);
    await h['boxReview.update']({ dataset_id: ds.id, position: 0, run_id: null, variant: 0, truth: [{ label: 'card', ...CARD }] });
    const start = async () => {
      const run = await h['evals.start']({ request: BOX_SET, dataset_id: ds.id, variants: [{ model: 'sandbox/baseline-vision' }], concurrency: 1 });
      return until(
        () => h['evals.get']({ id: run.id }),
        (r) => r.status !== 'running',
      );
    };
    const first = await start();
    await h['boxReview.update']({ dataset_id: ds.id, position: 0, run_id: first.id, variant: 0, verdict: 'rejected' });
    const again = await start();
    // The same boxes again: still a re-run since the verdict, to confirm.
    expect((await h['boxReview.items']({ dataset_id: ds.id, run_id: again.id, variant: 0 }))[0]).toMatchObject({
      verdict: 'rejected',
      stale: true,
      stale_reason: 'rerun_unchanged',
    });
    // The newer answer moves: the verdict was on other boxes.
    sqliteOf(env.core).run("UPDATE eval_results SET answers = json_set(answers, '$.card.box.top', 0.01) WHERE run_id = ?", [again.id]);
    expect((await h['boxReview.items']({ dataset_id: ds.id, run_id: again.id, variant: 0 }))[0]).toMatchObject({
      verdict: 'rejected',
      stale: true,
      stale_reason: 'rerun_changed',
    });
    // Judging the newest answer makes it current.
    expect(await h['boxReview.update']({ dataset_id: ds.id, position: 0, run_id: again.id, variant: 0, verdict: 'accepted' })).toMatchObject({
      verdict: 'accepted',
      stale: false,
    });
    const other = await h['boxReview.addImages']({ name: 'other', images: [image('y.png')] }, AS_DESKTOP);
    await expect(h['boxReview.items']({ dataset_id: other.id, run_id: first.id, variant: 0 })).rejects.toThrow(/over another dataset/);
    await expect(
      h['boxReview.update']({ dataset_id: other.id, position: 0, run_id: first.id, variant: 0, truth: [{ label: 'card', ...CARD }] }),
    ).rejects.toThrow(/over another dataset/);
    expect((await h['datasets.items']({ dataset_id: other.id, offset: 0, limit: 1 })).items[0]!.expected).toEqual({});
  });

  it('copies the images added before datasets into one, with truth, verdicts and notes', async () => {
    const h = env.core.handlers;
    const old = await h['boxes.add']({ name: 'old.png', data_url: image('old.png').data_url });
    await h['boxes.update']({ id: old.id, truth: [{ ...CARD }], answer: CARD, verdict: 'accepted', note: 'kept' });
    const ds = await h['boxReview.fromLegacy']({ name: 'earlier reviews', question: 'box' }, AS_DESKTOP);
    const { items } = await h['datasets.items']({ dataset_id: ds.id, offset: 0, limit: 10 });
    expect(items[0]).toMatchObject({ id: 'old.png', expected: { box: CARD } });
    // No run of this dataset has answered yet, so the verdict on the old answer shows as stale.
    expect((await h['boxReview.items']({ dataset_id: ds.id, run_id: null, variant: 0 }))[0]).toMatchObject({
      name: 'old.png',
      verdict: 'accepted',
      note: 'kept',
      stale: true,
      truth: [{ label: 'box', ...CARD }],
    });
    expect(await h['boxes.list']({})).toHaveLength(1);
  });
});

/** "Save box reviews as a dataset" (Evaluations) and "Copy into a dataset" (Boxes) are one copy. */
describe('images added before datasets, copied into one', () => {
  let env: TempCore;
  beforeAll(async () => {
    env = await tempCore();
  });
  afterAll(() => env.cleanup());

  it('name unlabelled truth and a lone answer after the question given, labelled truth after its own, and keep verdicts per model', async () => {
    const h = env.core.handlers;
    const a = await h['boxes.add']({ name: 'a.png', data_url: image('a.png').data_url });
    await h['boxes.update']({
      id: a.id,
      truth: [{ top: 0.1, left: 0.2, bottom: 0.5, right: 0.6 }],
      answer: CARD,
      model: 'acme/one',
      run_id: 'old-run',
      verdict: 'rejected',
      note: 'too wide',
    });
    const b = await h['boxes.add']({ name: 'a.png', data_url: image('a.png').data_url });
    await h['boxes.update']({
      id: b.id,
      truth: [
        { ...CARD, label: 'card' },
        { top: 0.6, left: 0.5, bottom: 0.9, right: 0.9, label: 'badge' },
      ],
    });
    const dataset = await h['boxReview.fromLegacy']({ name: 'parcels', question: 'parcel' }, AS_DESKTOP);
    const { items } = await h['datasets.items']({ dataset_id: dataset.id, offset: 0, limit: 10 });
    // Two images of one name keep distinct ids (which is which follows the review list's order).
    expect(items.map((i) => i.id).sort()).toEqual(['a.png', 'a.png (2)']);
    expect(items.map((i) => i.expected).sort((x, y) => Object.keys(x).length - Object.keys(y).length)).toEqual([
      { parcel: { top: 0.1, left: 0.2, bottom: 0.5, right: 0.6 } },
      { card: CARD, badge: { top: 0.6, left: 0.5, bottom: 0.9, right: 0.9 } },
    ]);
    const verdicts = sqliteOf(env.core).all<{ model: string; verdict: string; note: string; answers: string }>(
      'SELECT model, verdict, note, answers FROM box_verdicts WHERE dataset_id = ?',
      [dataset.id],
    );
    expect(verdicts).toEqual([{ model: 'acme/one', verdict: 'rejected', note: 'too wide', answers: JSON.stringify({ parcel: CARD }) }]);
    expect(h).not.toHaveProperty('datasets.fromBoxes');
  });
});
