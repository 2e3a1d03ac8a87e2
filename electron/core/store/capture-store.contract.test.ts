import { describe, expect, it } from 'vitest';
import { storeBackends } from '../../test-support/store-backends';
import type { CaptureStorage, DatasetStorage, NewCapture, StoredCaptureRule } from './ports';
import { PgCaptureStore } from './postgres/capture-store';
import { PgDatasetStore } from './postgres/dataset-store';
import { SqliteCaptureStore } from './sqlite/capture-store';
import { SqliteDatasetStore } from './sqlite/dataset-store';

/** The captures' storage contract, on both backends, with the datasets' storage whose items captures add. */
const backends = storeBackends<{ captures: CaptureStorage; datasets: DatasetStorage }>({
  sqlite: (store) => ({ captures: new SqliteCaptureStore(store), datasets: new SqliteDatasetStore(store) }),
  postgres: async (db) => ({ captures: await PgCaptureStore.open(db), datasets: await PgDatasetStore.open(db) }),
});

const rule = (id: string, over: Partial<StoredCaptureRule> = {}): StoredCaptureRule => ({
  id,
  name: `rule ${id}`,
  dataset_id: 'd1',
  key_ids: ['key-a'],
  question_set_id: null,
  question_signature: null,
  models: null,
  when: { question: 'mood', confidenceBelow: 0.6 },
  sample_rate: 0.25,
  daily_cap: 3,
  retention_days: 7,
  keep_images: false,
  created_at: '2026-03-01T00:00:00.000Z',
  ...over,
});

const capture = (n: number, at = '2026-03-02T10:00:00.000Z'): NewCapture => ({
  request_id: `req-${n}`,
  state: `ticket ${n}`,
  key_id: 'key-a',
  model: 'sandbox/decider',
  provider: 'sandbox',
  cost: 0.001 * n,
  captured_at: at,
  questions: { urgent: { type: 'noul', instructions: 'Is it urgent?' } },
  answers: { urgent: { type: 'noul', noul: 0.2 + n / 100 } },
  outcome: { latency_ms: 100 + n, escalated: n % 2 === 0, provisional: false, refused: n % 3 === 0 ? ['urgent'] : [] },
});

const dataset = { id: 'd1', name: 'captured', items: 0, created_at: '2026-03-01T00:00:00.000Z', sample: false };

describe.each(backends)('CaptureStorage on %s', (_name, backend) => {
  it('keeps rules as given with their dataset name, and another connection reads the same; removing says whether there was one', async () => {
    const { a, b, close } = await backend.open();
    try {
      await a.datasets.create(dataset, []);
      const first = rule('r1');
      const second = rule('r2', { key_ids: null, models: ['m/x', 'm/y'], when: null, question_signature: 'sig', created_at: '2026-03-01T00:00:01.000Z' });
      await a.captures.add(second);
      await a.captures.add(first);
      expect(await b.captures.get('r1')).toEqual(first);
      expect(await b.captures.list()).toEqual([
        { ...first, dataset_name: 'captured' },
        { ...second, dataset_name: 'captured' },
      ]);
      expect(await b.captures.remove('r1')).toBe(true);
      expect(await a.captures.remove('r1')).toBe(false);
      expect(await a.captures.get('r1')).toBeUndefined();
    } finally {
      await close();
    }
  });

  it('appends captures as items after the last one with their predictions, never past the daily cap counted over every connection', async () => {
    const { a, b, close } = await backend.open();
    try {
      await a.datasets.create(dataset, []);
      await a.datasets.addItems('d1', [{ id: 'req-1', state: 'an item added by hand' }]);
      await a.captures.add(rule('r1'));
      expect(await a.captures.append('r1', '2026-03-02', [capture(1), capture(2)])).toBe(2);
      // The cap is 3 a day: one more is kept, whichever connection appends it.
      expect(await b.captures.append('r1', '2026-03-02', [capture(3), capture(4)])).toBe(1);
      expect(await a.captures.append('r1', '2026-03-02', [capture(5)])).toBe(0);
      // A new day has room again.
      expect(await a.captures.append('r1', '2026-03-03', [capture(6, '2026-03-03T01:00:00.000Z')])).toBe(1);
      const stored = await b.datasets.get('d1');
      expect(stored?.items).toBe(5);
      const page = await b.datasets.page('d1', { offset: 0, limit: 10 });
      // An id already taken becomes "id (2)"; items carry no labels.
      expect(page.items.map((i) => [i.position, i.id, i.state, i.expected])).toEqual([
        [0, 'req-1', 'an item added by hand', {}],
        [1, 'req-1 (2)', 'ticket 1', {}],
        [2, 'req-2', 'ticket 2', {}],
        [3, 'req-3', 'ticket 3', {}],
        [4, 'req-6', 'ticket 6', {}],
      ]);
      const predictions = await b.captures.predictions('d1', [0, 2, 4]);
      expect(predictions.map((p) => [p.position, p.request_id, p.answers, p.outcome])).toEqual([
        [2, 'req-2', capture(2).answers, { latency_ms: 102, escalated: true, provisional: false, refused: [] }],
        [4, 'req-6', capture(6).answers, { latency_ms: 106, escalated: true, provisional: false, refused: ['urgent'] }],
      ]);
      expect(predictions[0]).toMatchObject({
        rule_id: 'r1',
        key_id: 'key-a',
        model: 'sandbox/decider',
        provider: 'sandbox',
        cost: 0.002,
        questions: capture(2).questions,
      });
      const counts = await a.captures.counts('2026-03-02');
      expect(counts.get('r1')).toEqual({ today: 3, total: 4 });
      expect(await b.captures.takenOn('2026-03-02')).toEqual(new Map([['r1', 3]]));
      expect(await a.captures.append('gone', '2026-03-02', [capture(7)])).toBe(0);
    } finally {
      await close();
    }
  });

  it('expires what a rule captured before a time, with its predictions; later items and items added by hand stay, and new items go after the last', async () => {
    const { a, b, close } = await backend.open();
    try {
      await a.datasets.create(dataset, []);
      await a.captures.add(rule('r1', { daily_cap: 100 }));
      await a.captures.append('r1', '2026-03-01', [capture(1, '2026-03-01T10:00:00.000Z'), capture(2, '2026-03-01T11:00:00.000Z')]);
      await a.datasets.addItems('d1', [{ id: 'by hand', state: 'kept' }]);
      await a.captures.append('r1', '2026-03-05', [capture(3, '2026-03-05T10:00:00.000Z')]);
      expect(await b.captures.expire('r1', '2026-03-02T00:00:00.000Z')).toBe(2);
      expect(await b.captures.expire('r1', '2026-03-02T00:00:00.000Z')).toBe(0);
      expect((await a.datasets.get('d1'))?.items).toBe(2);
      expect((await a.datasets.page('d1', { offset: 0, limit: 10 })).items.map((i) => [i.position, i.id])).toEqual([
        [2, 'by hand'],
        [3, 'req-3'],
      ]);
      expect((await a.captures.predictions('d1', [0, 1, 2, 3])).map((p) => p.position)).toEqual([3]);
      expect((await a.datasets.addItems('d1', [{ id: 'later', state: 'x' }]))[0]!.position).toBe(4);
      expect((await a.captures.counts('2026-03-05')).get('r1')).toEqual({ today: 1, total: 1 });
      // A rule goes with its dataset.
      await a.datasets.remove('d1');
      expect(await b.captures.list()).toEqual([]);
    } finally {
      await close();
    }
  });
});
