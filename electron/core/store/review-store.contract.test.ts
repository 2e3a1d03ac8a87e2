import { describe, expect, it } from 'vitest';
import { storeBackends } from '../../test-support/store-backends';
import type { DatasetStorage, ReviewStorage, StoredReview } from './ports';
import { PgDatasetStore } from './postgres/dataset-store';
import { PgReviewStore } from './postgres/review-store';
import { SqliteDatasetStore } from './sqlite/dataset-store';
import { SqliteReviewStore } from './sqlite/review-store';

/** The reviews' storage contract, on both backends: "another process" is another connection. */
const backends = storeBackends<{ reviews: ReviewStorage; datasets: DatasetStorage }>({
  sqlite: (store) => ({ reviews: new SqliteReviewStore(store), datasets: new SqliteDatasetStore(store) }),
  postgres: async (db) => ({ reviews: await PgReviewStore.open(db), datasets: await PgDatasetStore.open(db) }),
});

const T = 1_000_000;
const review = (position: number, reviewer: string, over: Partial<StoredReview> = {}): StoredReview => ({
  position,
  reviewer,
  at: '2026-03-02T10:00:00.000Z',
  answers: { late: true },
  flagged: false,
  second_wanted: false,
  ...over,
});

async function dataset(datasets: DatasetStorage, n: number, labelled: number[] = []) {
  await datasets.create(
    { id: 'd', name: 'to review', items: n, created_at: '2026-03-01T00:00:00.000Z', sample: false },
    Array.from({ length: n }, (_, position) => ({
      position,
      id: `item-${position}`,
      state: `text ${position}`,
      expected: labelled.includes(position) ? { late: false } : {},
    })),
  );
}

describe.each(backends)('ReviewStorage on %s', (_name, backend) => {
  it('leases each open item to one reviewer at a time, skips labelled ones, and hands an expired lease to the next', async () => {
    const { a, b, close } = await backend.open();
    try {
      await dataset(a.datasets, 4, [1]);
      expect(await a.reviews.claim('d', 'ada', -1, T, T + 600)).toBe(0);
      // Another reviewer, through another connection, gets the next open item (1 is labelled).
      expect(await b.reviews.claim('d', 'bo', -1, T, T + 600)).toBe(2);
      // Asking again, a reviewer keeps one item: the lease moves to the next one it finds.
      expect(await a.reviews.claim('d', 'ada', 0, T, T + 600)).toBe(3);
      expect(await b.reviews.claim('d', 'bo', 3, T, T + 600)).toBeNull();
      // Ada gave up item 0 when she moved on: it is open again from the start.
      expect(await b.reviews.claim('d', 'bo', -1, T, T + 600)).toBe(0);
      // Once Bo's lease has run out, Ada gets item 0 back.
      expect(await a.reviews.claim('d', 'ada', -1, T + 601, T + 1200)).toBe(0);
      await a.reviews.release('d', 0, 'ada');
      expect(await b.reviews.claim('d', 'bo', -1, T + 602, T + 1200)).toBe(0);
    } finally {
      await close();
    }
  });

  it('a review writes the expected answers once, keeps who and when, and refuses a second, a labelled item and one another reviewer holds', async () => {
    const { a, b, close } = await backend.open();
    try {
      await dataset(a.datasets, 4, [1]);
      expect(await a.reviews.claim('d', 'ada', -1, T, T + 600)).toBe(0);
      expect(await b.reviews.write('d', review(0, 'bo'), T)).toBe('leased_to_another');
      expect(await a.reviews.write('d', review(0, 'ada', { answers: { late: true } }), T)).toBe('written');
      expect(await b.reviews.write('d', review(0, 'bo'), T)).toBe('already_reviewed');
      expect(await b.reviews.write('d', review(1, 'bo'), T)).toBe('already_reviewed');
      expect(await b.reviews.write('d', review(9, 'bo'), T)).toBe('no_item');
      expect((await b.datasets.item('d', 0))?.expected).toEqual({ late: true });
      // Flagged: it leaves the queue with no expected answers.
      expect(await b.reviews.write('d', review(2, 'bo', { answers: {}, flagged: true }), T)).toBe('written');
      expect((await a.datasets.item('d', 2))?.expected).toEqual({});
      expect(await a.reviews.reviews('d', null)).toEqual([review(0, 'ada'), review(2, 'bo', { answers: {}, flagged: true })]);
      expect(await b.reviews.counts('d')).toEqual({ open: 1, reviewed: 2, flagged: 1, second_open: 0 });
      expect(await a.reviews.claim('d', 'ada', -1, T, T + 600)).toBe(3);
    } finally {
      await close();
    }
  });

  it('a first review that asks for a second opens the item to another reviewer once, and the first answers stay the label', async () => {
    const { a, b, close } = await backend.open();
    try {
      await dataset(a.datasets, 2);
      expect(await a.reviews.write('d', review(0, 'ada', { answers: { late: true }, second_wanted: true }), T)).toBe('written');
      // Not to Ada again; to Bo, once, through another connection.
      expect(await a.reviews.claim('d', 'ada', -1, T, T + 600)).toBe(1);
      expect(await b.reviews.claim('d', 'bo', -1, T, T + 600)).toBe(0);
      expect(await b.reviews.counts('d')).toEqual({ open: 1, reviewed: 1, flagged: 0, second_open: 1 });
      expect(await a.reviews.write('d', review(0, 'ada', { answers: { late: false } }), T)).toBe('already_reviewed');
      expect(await b.reviews.write('d', review(0, 'bo', { answers: { late: false }, second_wanted: true }), T)).toBe('written');
      expect(await b.reviews.write('d', review(0, 'cy', { answers: { late: false } }), T)).toBe('already_reviewed');
      expect((await a.datasets.item('d', 0))?.expected).toEqual({ late: true });
      // The second asks for no third.
      expect((await a.reviews.reviews('d', [0])).map((r) => [r.reviewer, r.answers, r.second_wanted])).toEqual([
        ['ada', { late: true }, true],
        ['bo', { late: false }, false],
      ]);
      expect(await b.reviews.counts('d')).toEqual({ open: 1, reviewed: 1, flagged: 0, second_open: 0 });
      // Item 1 is Ada's until her lease ends.
      expect(await b.reviews.claim('d', 'cy', -1, T, T + 600)).toBeNull();
      expect(await b.reviews.claim('d', 'cy', -1, T + 601, T + 1200)).toBe(1);
    } finally {
      await close();
    }
  });

  it("a release gives back only the reviewer's own lease of that item, at once, to another connection; anything else is left as it is", async () => {
    const { a, b, close } = await backend.open();
    try {
      await dataset(a.datasets, 3);
      expect(await a.reviews.claim('d', 'ada', -1, T, T + 600)).toBe(0);
      expect(await b.reviews.claim('d', 'bo', -1, T, T + 600)).toBe(1);
      // Not Bo's to give back, nor Ada's at another position or in another dataset: nothing moves.
      expect(await b.reviews.release('d', 0, 'bo')).toBe(false);
      expect(await a.reviews.release('d', 1, 'ada')).toBe(false);
      expect(await a.reviews.release('other', 0, 'ada')).toBe(false);
      expect(await b.reviews.claim('d', 'cy', -1, T, T + 600)).toBe(2);
      expect(await b.reviews.write('d', review(1, 'cy'), T)).toBe('leased_to_another');
      // Ada's own, long before her lease ends: Cy gets item 0 through the other connection.
      expect(await a.reviews.release('d', 0, 'ada')).toBe(true);
      expect(await a.reviews.release('d', 0, 'ada')).toBe(false);
      expect(await b.reviews.claim('d', 'cy', -1, T + 1, T + 600)).toBe(0);
      // Answered, an item has no lease left to give back.
      expect(await b.reviews.write('d', review(0, 'cy'), T + 2)).toBe('written');
      expect(await b.reviews.release('d', 0, 'cy')).toBe(false);
      // Bo's lease of item 1 was never touched.
      expect(await a.reviews.write('d', review(1, 'ada'), T + 3)).toBe('leased_to_another');
    } finally {
      await close();
    }
  });

  it('reviewers claiming at once through two connections never get the same item', async () => {
    const { a, b, close } = await backend.open();
    try {
      await dataset(a.datasets, 12);
      const claims = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? a : b).reviews.claim('d', `reviewer-${i}`, -1, T, T + 600)));
      const held = claims.filter((p): p is number => p !== null);
      expect(held.length).toBeGreaterThan(0);
      expect(new Set(held).size).toBe(held.length);
    } finally {
      await close();
    }
  });
});
