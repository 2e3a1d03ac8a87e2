import { describe, expect, it } from 'vitest';
import { storeBackends } from '../../test-support/store-backends';
import type { BoxStorage, DatasetStorage, StoredBoxItem, StoredVerdict } from './ports';
import { PgBoxStore } from './postgres/box-store';
import { PgDatasetStore } from './postgres/dataset-store';
import { SqliteBoxStore } from './sqlite/box-store';
import { SqliteDatasetStore } from './sqlite/dataset-store';

/** The boxes domain's storage contract, on both backends (verdicts are on datasets' items, so those are there too). */
interface Ports {
  datasets: DatasetStorage;
  boxes: BoxStorage;
}

const backends = storeBackends<Ports>({
  sqlite: (store) => ({ datasets: new SqliteDatasetStore(store), boxes: new SqliteBoxStore(store) }),
  postgres: async (db) => ({ datasets: await PgDatasetStore.open(db), boxes: new PgBoxStore(db) }),
});

const boxItem = (id: string, created_at: string, over: Partial<StoredBoxItem> = {}): StoredBoxItem => ({
  id,
  name: `${id}.png`,
  data_url: `data:image/png;base64,${id}`,
  truth: [{ x: 1, y: 2, w: 3, h: 4, label: 'cat' }],
  answer: null,
  answers: {},
  model: null,
  run_id: null,
  verdict: null,
  verdict_run_id: null,
  note: '',
  width: null,
  height: null,
  created_at,
  ...over,
});

const verdict = (item_id: string, model: string, over: Partial<StoredVerdict> = {}): StoredVerdict => ({
  item_id,
  question: '',
  model,
  verdict: 'accepted',
  note: '',
  // Written as given, spacing and key order too: compared as text.
  answers: '{"boxes": [{"y": 2, "x": 1}]}',
  truth: '[ {"x":1} ]',
  run_id: 'run-1',
  variant: 0,
  answered_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-02T00:00:00.000Z',
  ...over,
});

async function withDataset(datasets: DatasetStorage, id = 'ds'): Promise<void> {
  await datasets.create({ id, name: id, items: 0, created_at: '2026-01-01T00:00:00.000Z', sample: false }, []);
}

describe.each(backends)('BoxStorage on %s', (_name, backend) => {
  it('keeps the old review table as given, lists it by time then id, with or without images, replaces and removes', async () => {
    const { a, b, close } = await backend.open();
    try {
      const late = boxItem('b', '2026-01-02T00:00:00.000Z', {
        answer: [{ x: 5 }],
        answers: { boxes: [{ x: 5 }] },
        model: 'openai/gpt-5',
        run_id: 'run-1',
        verdict: 'rejected',
        verdict_run_id: 'run-1',
        note: 'missed the dog',
        width: 640,
        height: 480,
      });
      const early = boxItem('c', '2026-01-01T00:00:00.000Z');
      const tie = boxItem('a', '2026-01-02T00:00:00.000Z');
      for (const i of [late, early, tie]) await a.boxes.addItem(i);
      expect(await b.boxes.listItems({ images: true })).toEqual([early, tie, late]);
      expect(await b.boxes.listItems({ images: false })).toEqual([early, tie, late].map((i) => ({ ...i, data_url: '' })));
      expect(await b.boxes.getItem('b')).toEqual(late);
      expect(await b.boxes.getItem('z')).toBeUndefined();

      const changed = { ...late, verdict: 'accepted' as const, note: '', answer: null, width: null, height: null };
      await b.boxes.putItem(changed);
      expect(await a.boxes.getItem('b')).toEqual(changed);
      await a.boxes.removeItem('c');
      expect((await b.boxes.listItems({ images: false })).map((i) => i.id)).toEqual(['a', 'b']);
    } finally {
      await close();
    }
  });

  it('reads verdicts of the models asked, of one item when asked, by item, question and model; answers and truth as written', async () => {
    const { a, b, close } = await backend.open();
    try {
      await withDataset(a.datasets);
      await withDataset(a.datasets, 'other');
      const rows = [
        verdict('img-2', 'm'),
        verdict('img-1', 'n', { verdict: 'rejected', note: 'too wide' }),
        verdict('img-1', 'm', { question: 'dogs', verdict: null, truth: null, run_id: null, answered_at: null }),
        verdict('img-1', 'm'),
        verdict('img-1', '', { variant: 2 }),
      ];
      await a.boxes.putVerdicts('ds', rows);
      await a.boxes.putVerdicts('other', [verdict('img-1', 'm', { note: 'another dataset' })]);
      const [img2m, img1n, img1mDogs, img1m, img1unknown] = rows as [StoredVerdict, StoredVerdict, StoredVerdict, StoredVerdict, StoredVerdict];
      expect(await b.boxes.verdicts('ds', ['m', 'n'])).toEqual([img1m, img1n, img1mDogs, img2m]);
      expect(await b.boxes.verdicts('ds', ['m'], 'img-1')).toEqual([img1m, img1mDogs]);
      expect(await b.boxes.verdicts('ds', [''])).toEqual([img1unknown]);
      expect(await b.boxes.verdicts('ds', [])).toEqual([]);
      expect(await b.boxes.allVerdicts('ds')).toEqual([img1unknown, img1m, img1n, img1mDogs, img2m]);
      expect((await b.boxes.verdicts('ds', ['m'], 'img-2'))[0]?.answers).toBe('{"boxes": [{"y": 2, "x": 1}]}');
    } finally {
      await close();
    }
  });

  it('putVerdicts replaces a verdict of the same item, question and model; the last given wins', async () => {
    const { a, b, close } = await backend.open();
    try {
      await withDataset(a.datasets);
      await a.boxes.putVerdicts('ds', [verdict('img-1', 'm'), verdict('img-1', 'm', { question: 'dogs' })]);
      await b.boxes.putVerdicts('ds', [
        verdict('img-1', 'm', { verdict: 'rejected', note: 'first' }),
        verdict('img-1', 'm', { verdict: null, note: 'second', answers: '{}', updated_at: '2026-01-03T00:00:00.000Z' }),
      ]);
      expect(await a.boxes.verdicts('ds', ['m'])).toEqual([
        verdict('img-1', 'm', { verdict: null, note: 'second', answers: '{}', updated_at: '2026-01-03T00:00:00.000Z' }),
        verdict('img-1', 'm', { question: 'dogs' }),
      ]);
      await expect(a.boxes.putVerdicts('no-such-dataset', [verdict('img-1', 'm')])).rejects.toThrow();
    } finally {
      await close();
    }
  });

  it("changes one item's verdicts of one model in a transaction: the model's rows and those of no known model in, ended ones kept in the history", async () => {
    const { a, b, close } = await backend.open();
    try {
      await withDataset(a.datasets);
      const unknown = verdict('img-1', '', { note: 'from before models' });
      const otherItem = verdict('img-2', 'm');
      const otherModel = verdict('img-1', 'n');
      await a.boxes.putVerdicts('ds', [unknown, otherItem, otherModel]);

      const given = [verdict('img-1', 'm', { question: 'dogs' }), verdict('img-1', 'm', { question: 'cats', verdict: 'rejected', note: 'missed one' })];
      await b.boxes.changeVerdicts('ds', 'img-1', 'm', (mine, unknownModel) => {
        expect(mine).toEqual([]);
        expect(unknownModel).toEqual([unknown]);
        return { rows: given, ended: [], at: '2026-01-03T00:00:00.000Z' };
      });
      expect(await a.boxes.verdicts('ds', ['m'], 'img-1')).toEqual([given[1], given[0]]);

      // The cats verdict is replaced and the dogs one cleared (ended without a verdict: no history).
      const replaced = verdict('img-1', 'm', { question: 'cats', verdict: 'accepted', updated_at: '2026-01-04T00:00:00.000Z' });
      await a.boxes.changeVerdicts('ds', 'img-1', 'm', (mine) => {
        expect(mine).toEqual([given[1], given[0]]);
        return { rows: [replaced], ended: [given[1]!, { ...given[0]!, verdict: null }], at: '2026-01-04T00:00:00.000Z' };
      });
      expect(await b.boxes.verdicts('ds', ['m', 'n', ''])).toEqual([unknown, otherModel, replaced, otherItem]);
      expect(await b.boxes.history('ds', 'img-1', 'm')).toEqual([
        { question: 'cats', verdict: 'rejected', note: 'missed one', given_at: '2026-01-02T00:00:00.000Z', ended_at: '2026-01-04T00:00:00.000Z' },
      ]);
      expect(await b.boxes.history('ds', 'img-1', 'n')).toEqual([]);

      // Of no known model: its own rows, and none besides.
      await a.boxes.changeVerdicts('ds', 'img-1', '', (mine, unknownModel) => {
        expect([mine, unknownModel]).toEqual([[unknown], []]);
        return { rows: [], ended: mine, at: '2026-01-05T00:00:00.000Z' };
      });
      expect(await b.boxes.verdicts('ds', [''])).toEqual([]);
      expect((await b.boxes.history('ds', 'img-1', '')).map((h) => h.note)).toEqual(['from before models']);
    } finally {
      await close();
    }
  });

  it('a change that throws, or whose rows cannot be stored, writes nothing, history included', async () => {
    const { a, b, close } = await backend.open();
    try {
      await withDataset(a.datasets);
      const kept = verdict('img-1', 'm');
      await a.boxes.putVerdicts('ds', [kept]);
      await expect(
        a.boxes.changeVerdicts('ds', 'img-1', 'm', () => {
          throw new Error('the truth changed meanwhile');
        }),
      ).rejects.toThrow('the truth changed meanwhile');
      // The ended verdict goes to the history first; then a row no verdict can be is refused.
      await expect(
        a.boxes.changeVerdicts('ds', 'img-1', 'm', (mine) => ({
          rows: [{ ...kept, verdict: 'maybe' as 'accepted' }],
          ended: mine,
          at: '2026-01-05T00:00:00.000Z',
        })),
      ).rejects.toThrow();
      expect(await b.boxes.verdicts('ds', ['m'])).toEqual([kept]);
      expect(await b.boxes.history('ds', 'img-1', 'm')).toEqual([]);
    } finally {
      await close();
    }
  });

  it('keeps the newest 20 ended verdicts, newest first, those ended at one time in the order they were written, latest first', async () => {
    const { a, b, close } = await backend.open();
    try {
      await withDataset(a.datasets);
      const at = (n: number) => `2026-02-01T00:00:${String(n).padStart(2, '0')}.000Z`;
      // 24 changes, each ending the verdict before it; the last two at the same time.
      for (let n = 0; n < 24; n += 1) {
        await a.boxes.changeVerdicts('ds', 'img-1', 'm', (mine) => ({
          rows: [verdict('img-1', 'm', { note: `note ${n}`, updated_at: at(n) })],
          ended: mine,
          at: at(Math.min(n, 22)),
        }));
      }
      const history = await b.boxes.history('ds', 'img-1', 'm');
      expect(history).toHaveLength(20);
      expect(history.slice(0, 3)).toEqual([
        { question: '', verdict: 'accepted', note: 'note 22', given_at: at(22), ended_at: at(22) },
        { question: '', verdict: 'accepted', note: 'note 21', given_at: at(21), ended_at: at(22) },
        { question: '', verdict: 'accepted', note: 'note 20', given_at: at(20), ended_at: at(21) },
      ]);
      expect(history.at(-1)?.note).toBe('note 3');
    } finally {
      await close();
    }
  });

  it('changes of one item and model from two connections at once are made one after the other: no ended verdict is lost or doubled', async () => {
    const { a, b, close } = await backend.open();
    try {
      await withDataset(a.datasets);
      const changes = Array.from({ length: 12 }, (_, n) =>
        (n % 2 === 0 ? a : b).boxes.changeVerdicts('ds', 'img-1', 'm', (mine) => ({
          rows: [verdict('img-1', 'm', { note: `note ${n}`, updated_at: '2026-01-02T00:00:00.000Z' })],
          ended: mine,
          at: '2026-01-03T00:00:00.000Z',
        })),
      );
      await Promise.all(changes);
      const [current] = await a.boxes.verdicts('ds', ['m']);
      const ended = (await a.boxes.history('ds', 'img-1', 'm')).map((h) => h.note);
      // Every note given is either the current one or ended once.
      expect([...ended, current?.note].sort()).toEqual(Array.from({ length: 12 }, (_, n) => `note ${n}`).sort());
    } finally {
      await close();
    }
  });

  it("keeps image sizes per dataset, replacing an item's, nulls when unread", async () => {
    const { a, b, close } = await backend.open();
    try {
      await withDataset(a.datasets);
      await withDataset(a.datasets, 'other');
      await a.boxes.keepImageSizes('ds', [
        { item_id: 'img-1', width: 640, height: 480 },
        { item_id: 'img-2', width: null, height: null },
      ]);
      await b.boxes.keepImageSizes('ds', [{ item_id: 'img-1', width: 1024, height: 768 }]);
      await b.boxes.keepImageSizes('other', [{ item_id: 'img-1', width: 1, height: 1 }]);
      expect(await a.boxes.imageSizes('ds')).toEqual(
        new Map([
          ['img-1', { width: 1024, height: 768 }],
          ['img-2', { width: null, height: null }],
        ]),
      );
      expect(await a.boxes.imageSizes('none')).toEqual(new Map());
    } finally {
      await close();
    }
  });
});
