import { describe, expect, it } from 'vitest';
import { dispatch } from '../dispatch';
import { pngWithRect } from '../../test-support/images';
import { tempCore, type TempCore, AS_DESKTOP } from '../../test-support/temp-core';
import { storedRun } from '../../test-support/stored-run';

const CARD = { top: 40 / 300, left: 120 / 400, bottom: 130 / 300, right: 320 / 400 };
const image = (name: string, w = 400, h = 300) => ({ name, data_url: pngWithRect(w, h, { x: 12, y: 4, w: 20, h: 9 }) });

/** A dataset of two images with truth on one, its sizes read, and a verdict per model of a run. */
async function reviewed(env: TempCore): Promise<string> {
  const h = env.core.handlers;
  const ds = await h['boxReview.addImages']({ name: 'shelves', images: [image('a.png'), image('b.png', 64, 48)] }, AS_DESKTOP);
  await h['boxReview.update']({ dataset_id: ds.id, position: 0, run_id: null, variant: 0, truth: [{ label: 'card', ...CARD }] });
  await storedRun(env, {
    id: 'r',
    datasetId: ds.id,
    createdAt: '2026-01-01T00:00:00.000Z',
    request: {},
    variants: [{ model: 'acme/one' }, { model: 'acme/two' }],
    answers: [0, 1].map((variant) => ({ variant, position: 0, answers: JSON.stringify({ card: { type: 'box', box: CARD } }) })),
  });
  await h['boxReview.update']({ dataset_id: ds.id, position: 0, run_id: 'r', variant: 0, verdict: 'accepted', note: 'tight' });
  await h['boxReview.update']({ dataset_id: ds.id, position: 0, run_id: 'r', variant: 1, verdict: 'rejected' });
  return ds.id;
}

const verdictRows = async (env: TempCore, datasetId: string) =>
  (await env.core.storage.boxes.allVerdicts(datasetId))
    .sort((a, b) => (a.model < b.model ? -1 : a.model > b.model ? 1 : 0))
    .map((v) => ({ item_id: v.item_id, model: v.model, verdict: v.verdict, note: v.note, answers: v.answers, truth: v.truth }));

describe('datasets in a backup', () => {
  it('come back in a fresh data directory with the same items, expected boxes, image sizes and verdicts', async () => {
    const from = await tempCore();
    const to = await tempCore();
    try {
      const id = await reviewed(from);
      const backup = await from.core.handlers['backup.export']({});
      // Through the wire as a person's file would go: JSON text, parsed and checked again.
      const result = await dispatch(to.core, 'backup.import', { backup: JSON.parse(JSON.stringify(backup)) }, { kind: 'desktop' });
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
      const sizes = [...(await to.core.storage.boxes.imageSizes(restored!.id))]
        .map(([item_id, size]) => ({ item_id, ...size }))
        .sort((a, b) => (a.item_id < b.item_id ? -1 : 1));
      expect(sizes).toEqual([
        { item_id: 'a.png', width: 400, height: 300 },
        { item_id: 'b.png', width: 64, height: 48 },
      ]);
      const judged = JSON.stringify({ card: CARD });
      const truth = JSON.stringify([{ label: 'card', ...CARD }]);
      expect(await verdictRows(to, restored!.id)).toEqual([
        { item_id: 'a.png', model: 'acme/one', verdict: 'accepted', note: 'tight', answers: judged, truth },
        { item_id: 'a.png', model: 'acme/two', verdict: 'rejected', note: '', answers: judged, truth },
      ]);
      expect(await verdictRows(to, restored!.id)).toEqual(await verdictRows(from, id));
      // A run of the same model over the restored dataset shows the verdict, re-run since.
      await storedRun(to, {
        id: 'n',
        datasetId: restored!.id,
        createdAt: '2026-03-01T00:00:00.000Z',
        request: {},
        variants: [{ model: 'acme/one' }],
        answers: [{ variant: 0, position: 0, answers: JSON.stringify({ card: { type: 'box', box: CARD } }) }],
      });
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
        const result = await dispatch(to.core, 'backup.import', { backup: bad }, { kind: 'desktop' });
        expect(result.ok).toBe(false);
        expect(result.ok ? '' : result.error.message).toMatch(message);
      }
      // Verdicts and image sizes belong to a dataset (removed with it): no dataset, none of them.
      expect(await to.core.handlers['datasets.list']({})).toEqual([]);
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
      expect(await dispatch(env.core, 'backup.import', { backup: old }, { kind: 'desktop' })).toMatchObject({ ok: true, data: { datasets: 0 } });
    } finally {
      await env.cleanup();
    }
  });
});
