import { describe, expect, it } from 'vitest';
import { storeBackends } from '../../test-support/store-backends';
import type { QuestionSetStorage, StoredQuestionSet } from './ports';
import { PgQuestionSetStore } from './postgres/question-set-store';
import { SqliteQuestionSetStore } from './sqlite/question-set-store';

/** The question-sets domain's storage contract, on both backends. */
const backends = storeBackends<QuestionSetStorage>({ sqlite: (store) => new SqliteQuestionSetStore(store), postgres: (db) => new PgQuestionSetStore(db) });

const set = (id: string, updated_at: string, over: Partial<StoredQuestionSet> = {}): StoredQuestionSet => ({
  id,
  name: `set ${id}`,
  request: {
    model: 'sandbox/baseline-text',
    state: 'A ticket: "the parcel never came"',
    questions: { urgent: { type: 'noul', instructions: 'Is it urgent?' } },
  },
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at,
  deleted_at: null,
  sample: false,
  ...over,
});

describe.each(backends)('QuestionSetStorage on %s', (_name, backend) => {
  it("keeps a set's questions in the order they were written, however they sort", async () => {
    const { a, b, close } = await backend.open();
    try {
      const questions = {
        zeta: { type: 'noul', instructions: 'Last by name, first asked?' },
        alpha: { type: 'noul', instructions: 'Second?' },
        mid: { type: 'choice', instructions: 'Third?', criteria: { z: 'z', a: 'a' } },
      };
      await a.add(set('set-o', '2026-01-01T00:00:00.000Z', { request: { model: 'x/y', state: 's', questions } }));
      const back = (await b.get('set-o'))!.request as { questions: Record<string, { criteria?: Record<string, string> }> };
      expect(Object.keys(back.questions)).toEqual(['zeta', 'alpha', 'mid']);
      expect(Object.keys(back.questions['mid']!.criteria!)).toEqual(['z', 'a']);
      await a.update('set-o', {
        name: 'o',
        request: { model: 'x/y', state: 's', questions: { b: questions.alpha, a: questions.zeta } },
        updated_at: '2026-01-02T00:00:00.000Z',
      });
      expect(Object.keys(((await b.get('set-o'))!.request as { questions: object }).questions)).toEqual(['b', 'a']);
    } finally {
      await close();
    }
  });

  it('keeps each set as given; lists the live ones most recently updated first; another connection reads the same', async () => {
    const { a, b, close } = await backend.open();
    try {
      const old = set('set-a', '2026-01-01T00:00:00.000Z', { sample: true });
      const recent = set('set-b', '2026-01-03T00:00:00.000Z', { request: { model: 'x/y', state: { nested: [1, 'two', null] }, questions: {} } });
      const gone = set('set-c', '2026-01-04T00:00:00.000Z', { deleted_at: '2026-01-05T00:00:00.000Z' });
      for (const s of [old, recent, gone]) await a.add(s);
      expect(await b.live()).toEqual([recent, old]);
      expect(await b.get('set-c')).toEqual(gone);
      expect(await b.get('set-z')).toBeUndefined();
      await expect(a.add(old)).rejects.toThrow();
    } finally {
      await close();
    }
  });

  it('an update replaces name and request and brings a deleted set back; deletion is a mark that can be taken back', async () => {
    const { a, b, close } = await backend.open();
    try {
      await a.add(set('set-a', '2026-01-01T00:00:00.000Z'));
      await a.setDeleted('set-a', '2026-01-02T00:00:00.000Z');
      expect(await b.live()).toEqual([]);
      await b.update('set-a', { name: 'renamed', request: { model: 'm/n', state: 's', questions: {} }, updated_at: '2026-01-03T00:00:00.000Z' });
      expect(await a.get('set-a')).toEqual({
        ...set('set-a', '2026-01-03T00:00:00.000Z'),
        name: 'renamed',
        request: { model: 'm/n', state: 's', questions: {} },
      });
      await a.setDeleted('set-a', '2026-01-04T00:00:00.000Z');
      await a.setDeleted('set-a', null);
      expect((await b.live()).map((s) => s.id)).toEqual(['set-a']);
    } finally {
      await close();
    }
  });

  it('removes the sample sets for good, and says how many', async () => {
    const { a, b, close } = await backend.open();
    try {
      await a.add(set('set-a', '2026-01-01T00:00:00.000Z', { sample: true }));
      await a.add(set('set-b', '2026-01-01T00:00:00.000Z'));
      await a.add(set('set-c', '2026-01-01T00:00:00.000Z', { sample: true, deleted_at: '2026-01-02T00:00:00.000Z' }));
      expect(await b.removeSamples()).toBe(2);
      expect(await a.get('set-c')).toBeUndefined();
      expect((await a.live()).map((s) => s.id)).toEqual(['set-b']);
    } finally {
      await close();
    }
  });
});
