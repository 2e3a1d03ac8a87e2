import { describe, expect, it } from 'vitest';
import { dispatch } from '../dispatch';
import { pngWithRect } from '../../test-support/images';
import { tempCore, type TempCore } from '../../test-support/temp-core';

const CARD = { top: 40 / 300, left: 120 / 400, bottom: 130 / 300, right: 320 / 400 };
const image = (name: string, w = 400, h = 300) => ({ name, data_url: pngWithRect(w, h, { x: 12, y: 4, w: 20, h: 9 }) });

/** A dataset of two images with truth on one, its sizes read, and a verdict per model of a run. */
async function reviewed(env: TempCore): Promise<string> {
  const h = env.core.handlers;
  const ds = await h['boxReview.addImages']({ name: 'shelves', images: [image('a.png'), image('b.png', 64, 48)] });
  await h['boxReview.update']({ dataset_id: ds.id, position: 0, run_id: null, variant: 0, truth: [{ label: 'card', ...CARD }] });
  env.core.store.run(
    "INSERT INTO eval_runs (id, name, dataset_id, set_key, request, variants, concurrency, status, created_at) VALUES ('r', 'r', ?, 'k', '{}', ?, 1, 'done', '2026-01-01T00:00:00.000Z')",
    [ds.id, JSON.stringify([{ model: 'acme/one' }, { model: 'acme/two' }])],
  );
  for (const variant of [0, 1])
    env.core.store.run('INSERT INTO eval_results (run_id, variant, position, ok, answers, latency_ms) VALUES (?, ?, 0, 1, ?, 1)', [
      'r',
      variant,
      JSON.stringify({ card: { type: 'box', box: CARD } }),
    ]);
  await h['boxReview.update']({ dataset_id: ds.id, position: 0, run_id: 'r', variant: 0, verdict: 'accepted', note: 'tight' });
  await h['boxReview.update']({ dataset_id: ds.id, position: 0, run_id: 'r', variant: 1, verdict: 'rejected' });
  return ds.id;
}

const verdictRows = (env: TempCore, datasetId: string) =>
  env.core.store.all<{ item_id: string; model: string; verdict: string; note: string; answers: string; truth: string }>(
    'SELECT item_id, model, verdict, note, answers, truth FROM box_verdicts WHERE dataset_id = ? ORDER BY model',
    [datasetId],
  );

describe('datasets in a backup', () => {
  it('come back in a fresh data directory with the same items, expected boxes, image sizes and verdicts', async () => {
    const from = await tempCore();
    const to = await tempCore();
    try {
      const id = await reviewed(from);
      const backup = await from.core.handlers['backup.export']({});
      // Through the wire as a person's file would go: JSON text, parsed and checked again.
      const result = await dispatch(to.core, 'backup.import', { backup: JSON.parse(JSON.stringify(backup)) });
      expect(result).toMatchObject({ ok: true, data: { datasets: 1 } });

      const [restored] = await to.core.handlers['datasets.list']({});
      expect(restored).toMatchObject({ name: 'shelves', items: 2, labelled: { card: 1 } });
      const { items } = await to.core.handlers['datasets.items']({ dataset_id: restored!.id, offset: 0, limit: 10 });
      expect(items.map((i) => [i.position, i.id, i.expected])).toEqual([
        [0, 'a.png', { card: CARD }],
        [1, 'b.png', {}],
      ]);
      expect((await to.core.handlers['boxReview.image']({ dataset_id: restored!.id, position: 1 })).data_url).toBe(image('b.png', 64, 48).data_url);
      // The sizes kept are read back, not measured again.
      const sizes = to.core.store.all<{ item_id: string; width: number; height: number }>(
        'SELECT item_id, width, height FROM box_image_sizes WHERE dataset_id = ? ORDER BY item_id',
        [restored!.id],
      );
      expect(sizes).toEqual([
        { item_id: 'a.png', width: 400, height: 300 },
        { item_id: 'b.png', width: 64, height: 48 },
      ]);
      const judged = JSON.stringify({ card: CARD });
      const truth = JSON.stringify([{ label: 'card', ...CARD }]);
      expect(verdictRows(to, restored!.id)).toEqual([
        { item_id: 'a.png', model: 'acme/one', verdict: 'accepted', note: 'tight', answers: judged, truth },
        { item_id: 'a.png', model: 'acme/two', verdict: 'rejected', note: '', answers: judged, truth },
      ]);
      expect(verdictRows(to, restored!.id)).toEqual(verdictRows(from, id));
      // A run of the same model over the restored dataset shows the verdict, re-run since.
      to.core.store.run(
        "INSERT INTO eval_runs (id, name, dataset_id, set_key, request, variants, concurrency, status, created_at) VALUES ('n', 'n', ?, 'k', '{}', '[{\"model\":\"acme/one\"}]', 1, 'done', '2026-03-01T00:00:00.000Z')",
        [restored!.id],
      );
      to.core.store.run('INSERT INTO eval_results (run_id, variant, position, ok, answers, latency_ms) VALUES (?, 0, 0, 1, ?, 1)', [
        'n',
        JSON.stringify({ card: { type: 'box', box: CARD } }),
      ]);
      expect((await to.core.handlers['boxReview.items']({ dataset_id: restored!.id, run_id: 'n', variant: 0 }))[0]).toMatchObject({
        verdict: 'accepted',
        verdict_model: 'acme/one',
        note: 'tight',
        stale_reason: 'rerun_unchanged',
      });
    } finally {
      await from.cleanup();
      await to.cleanup();
    }
  });

  it('a malformed backup imports nothing and names what is wrong', async () => {
    const from = await tempCore();
    const to = await tempCore();
    try {
      await reviewed(from);
      const backup = JSON.parse(JSON.stringify(await from.core.handlers['backup.export']({}))) as {
        settings: { theme: string };
        datasets: { box_verdicts: { item_id: string }[]; items: { state: unknown; expected: unknown }[] }[];
      };
      backup.settings.theme = 'dark';
      const verdictOnNothing = structuredClone(backup);
      verdictOnNothing.datasets[0]!.box_verdicts[1]!.item_id = 'zz.png';
      const badState = structuredClone(backup);
      badState.datasets[0]!.items[1]!.state = 42;
      const badExpected = structuredClone(backup);
      badExpected.datasets[0]!.items[0]!.expected = { card: { top: 'high' } };
      const cases: [unknown, RegExp][] = [
        [verdictOnNothing, /datasets\[0\]\.box_verdicts\[1\]\.item_id: no item "zz\.png" in this dataset/],
        [badState, /datasets\.0\.items\.1\.state|datasets\[0\]\.items\[1\]\.state/],
        [badExpected, /datasets\.0\.items\.0\.expected|datasets\[0\]\.items\[0\]\.expected/],
      ];
      for (const [bad, message] of cases) {
        const result = await dispatch(to.core, 'backup.import', { backup: bad });
        expect(result.ok).toBe(false);
        expect(result.ok ? '' : result.error.message).toMatch(message);
      }
      expect(await to.core.handlers['datasets.list']({})).toEqual([]);
      expect(to.core.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM box_verdicts')!.n).toBe(0);
      expect((await to.core.handlers['settings.get']({})).theme).toBe('system');
    } finally {
      await from.cleanup();
      await to.cleanup();
    }
  });

  it('a backup made before datasets were in it still imports', async () => {
    const env = await tempCore();
    try {
      const { datasets: _gone, ...old } = await env.core.handlers['backup.export']({});
      expect(await dispatch(env.core, 'backup.import', { backup: old })).toMatchObject({ ok: true, data: { datasets: 0 } });
    } finally {
      await env.cleanup();
    }
  });
});
