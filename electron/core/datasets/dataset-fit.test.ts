import { describe, expect, it } from 'vitest';
import { itemsLabelledFor, lastRunOn } from './dataset-fit';

describe('itemsLabelledFor', () => {
  const items = [{ expected: { urgent: true } }, { expected: { category: 'billing', urgent: false } }, { expected: {} }, { expected: { card: [0, 0, 1, 1] } }];

  it('counts an item once however many of the questions it answers', () => {
    expect(itemsLabelledFor(items, ['urgent', 'category'])).toBe(2);
  });

  it('counts none for questions no item answers', () => {
    expect(itemsLabelledFor(items, ['tone'])).toBe(0);
    expect(itemsLabelledFor(items, [])).toBe(0);
  });

  it('does not take inherited names for answers', () => {
    expect(itemsLabelledFor(items, ['toString', 'constructor'])).toBe(0);
  });
});

describe('lastRunOn', () => {
  const runs = [
    { dataset_id: 'a', set_key: 'k1', created_at: '2026-11-01T10:00:00.000Z' },
    { dataset_id: 'a', set_key: 'k1', created_at: '2026-11-03T10:00:00.000Z' },
    { dataset_id: 'a', set_key: 'k2', created_at: '2026-11-05T10:00:00.000Z' },
    { dataset_id: 'b', set_key: 'k1', created_at: '2026-11-02T10:00:00.000Z' },
  ];

  it('is the latest start of that set on that dataset, whatever order the runs come in', () => {
    expect(lastRunOn(runs, { key: 'k1', dataset: 'a' })).toBe('2026-11-03T10:00:00.000Z');
    expect(lastRunOn([...runs].reverse(), { key: 'k1', dataset: 'a' })).toBe('2026-11-03T10:00:00.000Z');
  });

  it('is null where the set never ran', () => {
    expect(lastRunOn(runs, { key: 'k2', dataset: 'b' })).toBeNull();
  });
});
