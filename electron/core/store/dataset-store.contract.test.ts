import { describe, expect, it } from 'vitest';
import { storeBackends } from '../../test-support/store-backends';
import { until } from '../../test-support/until';
import type { BoxStorage, DatasetStorage, EvaluationStorage, StoredDataset, StoredItem } from './ports';
import { PgBoxStore } from './postgres/box-store';
import { PgDatasetStore } from './postgres/dataset-store';
import { pgEvaluationStorage } from './postgres/eval-store';
import { SqliteBoxStore } from './sqlite/box-store';
import { SqliteDatasetStore } from './sqlite/dataset-store';
import { sqliteEvaluationStorage } from './sqlite/eval-store';

/** The datasets domain's storage contract, on both backends, with the domains that keep data of a dataset (its removal cascades to them). */
interface Ports extends EvaluationStorage {
  datasets: DatasetStorage;
  boxes: BoxStorage;
}

const backends = storeBackends<Ports>({
  sqlite: (store) => ({ datasets: new SqliteDatasetStore(store), ...sqliteEvaluationStorage(store), boxes: new SqliteBoxStore(store) }),
  postgres: async (db) => ({ datasets: await PgDatasetStore.open(db), ...(await pgEvaluationStorage(db)), boxes: new PgBoxStore(db) }),
});

const dataset = (id: string, created_at: string, over: Partial<StoredDataset> = {}): StoredDataset => ({
  id,
  name: `dataset ${id}`,
  items: 0,
  created_at,
  sample: false,
  ...over,
});

const item = (position: number, id: string, state: unknown, expected: Record<string, unknown> = {}): StoredItem => ({ position, id, state, expected });

/** A dataset with these items, its count right. */
async function withItems(datasets: DatasetStorage, id: string, items: StoredItem[], created_at = '2026-01-01T00:00:00.000Z'): Promise<void> {
  await datasets.create(dataset(id, created_at, { items: items.length }), items);
}

describe.each(backends)('DatasetStorage on %s', (_name, backend) => {
  it('an import is listed only once finished; a batch of items is stored whole or not at all; unfinished imports can be dropped', async () => {
    const { a, b, close } = await backend.open();
    try {
      await a.datasets.beginImport({ id: 'ds-1', name: 'tickets', created_at: '2026-01-01T00:00:00.000Z' });
      expect(await b.datasets.list()).toEqual([]);
      expect(await b.datasets.get('ds-1')).toBeUndefined();
      await a.datasets.appendItems('ds-1', [item(0, 'first', 'one'), item(1, 'second', 'two')]);
      // The second batch repeats an id: none of it is kept.
      await expect(a.datasets.appendItems('ds-1', [item(2, 'third', 'three'), item(3, 'first', 'again')])).rejects.toThrow();
      expect((await b.datasets.itemsAfter('ds-1', -1, 10)).map((i) => i.id)).toEqual(['first', 'second']);
      await a.datasets.finishImport('ds-1', 2);
      expect(await b.datasets.list()).toEqual([{ id: 'ds-1', name: 'tickets', items: 2, created_at: '2026-01-01T00:00:00.000Z', sample: false }]);

      await a.datasets.beginImport({ id: 'ds-2', name: 'killed halfway', created_at: '2026-01-02T00:00:00.000Z' });
      await a.datasets.appendItems('ds-2', [item(0, 'x', 'x')]);
      await b.datasets.dropUnfinished();
      expect(await a.datasets.itemsAfter('ds-2', -1, 10)).toEqual([]);
      await a.datasets.finishImport('ds-2', 1);
      expect(await a.datasets.get('ds-2')).toBeUndefined();
      expect((await a.datasets.list()).map((d) => d.id)).toEqual(['ds-1']);
    } finally {
      await close();
    }
  });

  it('creates a dataset with its items together or not at all; lists newest first; keeps content and answers exactly, keys in order', async () => {
    const { a, b, close } = await backend.open();
    try {
      const state = { text: 'The parcel never came — "twice"', nested: [1, 2.5, null, true, { z: 'last', a: 'first' }], unicode: '東京 👋' };
      const expected = { urgent: true, category: 'billing', boxes: [{ x: 1, y: 2, w: 3, h: 4 }] };
      const older = dataset('ds-a', '2026-01-01T00:00:00.000Z', { items: 2, sample: true });
      await a.datasets.create(older, [item(0, 'ticket-1', state, expected), item(1, 'ticket-2', 'plain text')]);
      const newer = dataset('ds-b', '2026-01-02T00:00:00.000Z');
      await a.datasets.create(newer, []);
      // Two items at one position: the dataset is not kept either.
      await expect(a.datasets.create(dataset('ds-c', '2026-01-03T00:00:00.000Z'), [item(0, 'p', 'p'), item(0, 'q', 'q')])).rejects.toThrow();

      expect(await b.datasets.list()).toEqual([newer, older]);
      expect(await b.datasets.get('ds-a')).toEqual(older);
      expect(await b.datasets.get('ds-c')).toBeUndefined();
      const read = await b.datasets.item('ds-a', 0);
      expect(read).toEqual(item(0, 'ticket-1', state, expected));
      // As given, key order too (a question's place among the set's, a box's fields).
      expect(JSON.stringify(read)).toBe(JSON.stringify(item(0, 'ticket-1', state, expected)));
      expect(await b.datasets.item('ds-a', 2)).toBeUndefined();
      expect(await b.datasets.item('ds-z', 0)).toBeUndefined();
    } finally {
      await close();
    }
  });

  it('pages items in order with the total matched; a search matches the id or the content text as SQLite LIKE does', async () => {
    const { a, b, close } = await backend.open();
    try {
      await withItems(a.datasets, 'ds', [
        item(0, 'alpha', 'The Parcel never came'),
        item(1, 'beta', { note: 'ÉCOLE fermée' }),
        item(2, 'Gamma', '50% off'),
        item(3, 'delta', '150 grams'),
        item(4, 'epsilon', 'abc'),
        item(5, 'zeta', 'C:\\dir'),
      ]);
      const ids = async (page: { offset: number; limit: number; search?: string }) => {
        const found = await b.datasets.page('ds', page);
        return { total: found.total, ids: found.items.map((i) => i.id) };
      };
      expect(await ids({ offset: 0, limit: 2 })).toEqual({ total: 6, ids: ['alpha', 'beta'] });
      expect(await ids({ offset: 4, limit: 10 })).toEqual({ total: 6, ids: ['epsilon', 'zeta'] });
      expect(await ids({ offset: 0, limit: 10, search: '' })).toEqual({ total: 6, ids: ['alpha', 'beta', 'Gamma', 'delta', 'epsilon', 'zeta'] });
      // ASCII letters match in either case; the id is searched as well as the content.
      expect(await ids({ offset: 0, limit: 10, search: 'parcel' })).toEqual({ total: 1, ids: ['alpha'] });
      expect(await ids({ offset: 0, limit: 10, search: 'GAMMA' })).toEqual({ total: 1, ids: ['Gamma'] });
      expect(await ids({ offset: 0, limit: 10, search: 'lph' })).toEqual({ total: 1, ids: ['alpha'] });
      // Other letters only in their own case.
      expect(await ids({ offset: 0, limit: 10, search: 'ÉCOLE' })).toEqual({ total: 1, ids: ['beta'] });
      expect(await ids({ offset: 0, limit: 10, search: 'école' })).toEqual({ total: 0, ids: [] });
      expect(await ids({ offset: 0, limit: 10, search: 'FERMÉE' })).toEqual({ total: 0, ids: [] });
      // The content's JSON text is searched: a key matches, and a quote is there.
      expect(await ids({ offset: 0, limit: 10, search: '"note":' })).toEqual({ total: 1, ids: ['beta'] });
      // % and _ are wildcards, as in SQLite's LIKE; a backslash is itself (the stored text doubles it).
      expect(await ids({ offset: 0, limit: 10, search: '50%' })).toEqual({ total: 2, ids: ['Gamma', 'delta'] });
      expect(await ids({ offset: 0, limit: 10, search: 'a_c' })).toEqual({ total: 2, ids: ['alpha', 'epsilon'] }); // "Parcel", "abc"
      expect(await ids({ offset: 0, limit: 10, search: 'C:\\\\dir' })).toEqual({ total: 1, ids: ['zeta'] });
      expect(await ids({ offset: 0, limit: 10, search: 'C:\\dir' })).toEqual({ total: 0, ids: [] });
      // A page of the matches, with the total of them all.
      expect(await ids({ offset: 1, limit: 1, search: 'a' })).toEqual({ total: 6, ids: ['beta'] });
    } finally {
      await close();
    }
  });

  it('reads items after a position up to a limit, expectations without content, and replaces expected answers', async () => {
    const { a, b, close } = await backend.open();
    try {
      const items = [0, 1, 2, 3, 4].map((p) => item(p, `i${p}`, { n: p }, { urgent: p % 2 === 0 }));
      await withItems(a.datasets, 'ds', items);
      expect(await b.datasets.itemsAfter('ds', -1, 2)).toEqual(items.slice(0, 2));
      expect(await b.datasets.itemsAfter('ds', 1, 2)).toEqual(items.slice(2, 4));
      expect(await b.datasets.itemsAfter('ds', 3, 10)).toEqual(items.slice(4));
      expect(await b.datasets.itemsAfter('ds', 4, 10)).toEqual([]);
      expect(await b.datasets.expectations('ds')).toEqual(items.map((i) => ({ position: i.position, id: i.id, expected: i.expected })));
      expect(await b.datasets.expectations('ds', 3)).toEqual([{ position: 3, id: 'i3', expected: { urgent: false } }]);

      expect(await a.datasets.setExpected('ds', 3, { urgent: true, category: 'refund' })).toBe(true);
      expect(await a.datasets.setExpected('ds', 9, { urgent: true })).toBe(false);
      expect(await b.datasets.item('ds', 3)).toEqual(item(3, 'i3', { n: 3 }, { urgent: true, category: 'refund' }));
    } finally {
      await close();
    }
  });

  it('adds items after the last one with ids made unique as "id (2)", "id (3)", empty expected answers, and counts them', async () => {
    const { a, b, close } = await backend.open();
    try {
      await withItems(a.datasets, 'ds', [item(0, 'cat', 'c1', { animal: 'cat' }), item(1, 'cat (2)', 'c2'), item(2, 'dog', 'd1')]);
      const added = await a.datasets.addItems('ds', [
        { id: 'cat', state: { image: 'c3' } },
        { id: 'cat', state: 'c4' },
        { id: 'bird', state: 'b1' },
        { id: 'dog', state: 'd2' },
      ]);
      expect(added).toEqual([
        { position: 3, id: 'cat (3)' },
        { position: 4, id: 'cat (4)' },
        { position: 5, id: 'bird' },
        { position: 6, id: 'dog (2)' },
      ]);
      expect(await b.datasets.item('ds', 3)).toEqual(item(3, 'cat (3)', { image: 'c3' }, {}));
      expect((await b.datasets.get('ds'))?.items).toBe(7);
      // From another connection: after those, and unique among them.
      expect(await b.datasets.addItems('ds', [{ id: 'bird', state: 'b2' }])).toEqual([{ position: 7, id: 'bird (2)' }]);
      expect((await a.datasets.get('ds'))?.items).toBe(8);
      expect((await a.datasets.itemsAfter('ds', -1, 20)).map((i) => i.id)).toEqual([
        'cat',
        'cat (2)',
        'dog',
        'cat (3)',
        'cat (4)',
        'bird',
        'dog (2)',
        'bird (2)',
      ]);
    } finally {
      await close();
    }
  });

  it('the largest items, heads of content and datasets with an image first read the content as its stored JSON text, in characters', async () => {
    const { a, b, close } = await backend.open();
    try {
      await withItems(a.datasets, 'ds', [
        item(0, 'short', 'x'.repeat(10)), // "xxxxxxxxxx": 12 characters
        item(1, 'accents', { a: 'é'.repeat(20) }), // {"a":"é…"}: 28 characters (48 bytes)
        item(2, 'plain', 'y'.repeat(30)), // 32 characters
        item(3, 'tie', 'z'.repeat(10)), // 12 characters, after position 0
      ]);
      expect(await b.datasets.largest('ds', 4)).toEqual([2, 1, 0, 3]);
      expect(await b.datasets.largest('ds', 2)).toEqual([2, 1]);
      expect(await b.datasets.contentHead('ds', 1, 8)).toBe('{"a":"éé');
      expect(await b.datasets.contentHead('ds', 0, 100)).toBe(`"${'x'.repeat(10)}"`);
      expect(await b.datasets.contentHead('ds', 9, 8)).toBeUndefined();

      const image = 'data:image/png;base64,iVBORw0KGgo=';
      await withItems(a.datasets, 'first', [item(0, 'img', { image, text: 'a cat' }), item(1, 'txt', 'words')]);
      await withItems(a.datasets, 'later', [item(0, 'txt', 'words'), item(1, 'img', { image })]);
      await withItems(a.datasets, 'far', [item(0, 'img', { text: 'w'.repeat(200), image })]);
      await a.datasets.beginImport({ id: 'importing', name: 'importing', created_at: '2026-01-01T00:00:00.000Z' });
      await a.datasets.appendItems('importing', [item(0, 'img', { image })]);
      expect(await b.datasets.withImageFirst()).toEqual(['first']);
    } finally {
      await close();
    }
  });

  it('groups expected answers by question, type and value; boxes by question alone, one given; the example is the smallest id', async () => {
    const { a, b, close } = await backend.open();
    try {
      await withItems(a.datasets, 'ds', [
        item(0, 'i3', '', { urgent: true, category: 'billing', score: 2, boxes: [{ x: 1 }], note: null }),
        item(1, 'i1', '', { urgent: true, category: 'billing', score: 2.5, boxes: [{ x: 2 }] }),
        item(2, 'i2', '', { urgent: false, category: 'shipping', note: null, boxes: [{ x: 1 }] }),
        item(3, 'i10', '', { urgent: true, category: 'Billing', meta: { a: 1 } }),
        item(4, 'i4', '', { score: '2' }),
        item(5, 'i5', '', {}),
      ]);
      const groups = await b.datasets.expectedGroups('ds');
      const boxes = groups.find((g) => g.name === 'boxes');
      expect(boxes).toMatchObject({ name: 'boxes', items: 3, example: 'i1' });
      expect([[{ x: 1 }], [{ x: 2 }]]).toContainEqual(boxes?.value);
      const key = (g: { name: string; value: unknown }) => `${g.name} ${typeof g.value} ${JSON.stringify(g.value)}`;
      expect(
        groups
          .filter((g) => g.name !== 'boxes')
          .sort((x, y) => (key(x) < key(y) ? -1 : 1))
          .map((g) => [g.name, g.value, g.items, g.example]),
      ).toEqual([
        ['category', 'Billing', 1, 'i10'],
        ['category', 'billing', 2, 'i1'],
        ['category', 'shipping', 1, 'i2'],
        ['meta', { a: 1 }, 1, 'i10'],
        ['note', null, 2, 'i2'],
        ['score', 2, 1, 'i3'],
        ['score', 2.5, 1, 'i1'],
        ['score', '2', 1, 'i4'],
        ['urgent', false, 1, 'i2'],
        ['urgent', true, 3, 'i1'],
      ]);
      expect(await b.datasets.expectedGroups('ds-none')).toEqual([]);
    } finally {
      await close();
    }
  });

  it('removing a dataset removes its items, runs, results, verdicts, their history and image sizes, and nothing of another', async () => {
    const { a, b, close } = await backend.open();
    try {
      for (const id of ['gone', 'kept']) {
        await withItems(a.datasets, id, [item(0, 'img-1', 'x')]);
        await a.evalRuns.addRun({
          id: `run-${id}`,
          name: `run over ${id}`,
          dataset_id: id,
          set_key: 'set',
          request: {},
          variants: [{ model: 'm' }],
          concurrency: 1,
          budget_usd: null,
          status: 'done',
          message: null,
          created_at: '2026-01-01T00:00:00.000Z',
          finished_at: null,
          calibrations: null,
          baseline_id: null,
          estimate: null,
        });
        await a.evalWork.putAnswer(
          `run-${id}`,
          {
            variant: 0,
            position: 0,
            answers: { urgent: true },
            raw_answers: null,
            methods: null,
            attempts: null,
            provider: 'p',
            input_tokens: 1,
            output_tokens: 1,
            cost: 0.5,
            latency_ms: 10,
            error: null,
            model_key: 'm',
            content_chars: 3,
            answered_at: '2026-01-01T00:00:01.000Z',
          },
          { replace: false },
        );
        const verdict = {
          item_id: 'img-1',
          question: '',
          model: 'm',
          verdict: 'accepted' as const,
          note: '',
          answers: '{}',
          truth: null,
          run_id: `run-${id}`,
          variant: 0,
          answered_at: null,
          updated_at: '2026-01-01T00:00:02.000Z',
        };
        await a.boxes.putVerdicts(id, [verdict]);
        await a.boxes.changeVerdicts(id, 'img-1', 'm', (mine) => ({
          rows: [{ ...verdict, verdict: 'rejected' }],
          ended: mine,
          at: '2026-01-01T00:00:03.000Z',
        }));
        await a.boxes.keepImageSizes(id, [{ item_id: 'img-1', width: 640, height: 480 }]);
      }
      expect(await b.datasets.remove('gone')).toBe(true);
      expect(await b.datasets.remove('gone')).toBe(false);

      const left = async (id: string) => ({
        dataset: (await a.datasets.get(id))?.id,
        items: (await a.datasets.itemsAfter(id, -1, 10)).length,
        run: (await a.evalRuns.getRun(`run-${id}`))?.id,
        runs: await a.evalRuns.runNames(id),
        results: (await a.evalResults.results(`run-${id}`)).length,
        verdicts: (await a.boxes.verdicts(id, ['m'])).length,
        history: (await a.boxes.history(id, 'img-1', 'm')).length,
        sizes: (await a.boxes.imageSizes(id)).size,
      });
      expect(await left('gone')).toEqual({ dataset: undefined, items: 0, run: undefined, runs: [], results: 0, verdicts: 0, history: 0, sizes: 0 });
      expect(await left('kept')).toEqual({
        dataset: 'kept',
        items: 1,
        run: 'run-kept',
        runs: ['run over kept'],
        results: 1,
        verdicts: 1,
        history: 1,
        sizes: 1,
      });
    } finally {
      await close();
    }
  });

  it("the change token moves when another connection changes items, and at once after this connection's own; so does the results' token", async () => {
    const { a, b, close } = await backend.open();
    try {
      const moves = async (write: () => Promise<unknown>) => {
        const [items, results] = [a.datasets.changeToken(), a.evalResults.changeToken()];
        await write();
        // Another connection's write is heard after its commit (Postgres: a notice on the listening connection).
        await until(
          () => [a.datasets.changeToken(), a.evalResults.changeToken()],
          ([i, r]) => i !== items && r !== results,
        );
      };
      await moves(() => withItems(b.datasets, 'ds', [item(0, 'i0', 'x')]));
      await moves(() => b.datasets.setExpected('ds', 0, { urgent: true }));
      await moves(() => b.datasets.addItems('ds', [{ id: 'i1', state: 'y' }]));
      await moves(() => b.datasets.remove('ds'));

      await withItems(a.datasets, 'own', [item(0, 'i0', 'x')]);
      const [items, results] = [a.datasets.changeToken(), a.evalResults.changeToken()];
      await a.datasets.setExpected('own', 0, { urgent: false });
      expect(a.datasets.changeToken()).not.toBe(items);
      expect(a.evalResults.changeToken()).not.toBe(results);
    } finally {
      await close();
    }
  });
});
