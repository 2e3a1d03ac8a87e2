import { describe, expect, it } from 'vitest';
import { datasetOption, defaultDataset, pairingProblems, setContent } from './dataset-choice';

const fit = (dataset_id: string, labelled_items: number, last_run_at: string | null = null, images = false) => ({
  dataset_id,
  labelled_items,
  images,
  last_run_at,
});
const datasets = [{ id: 'shelf' }, { id: 'tickets' }, { id: 'other' }];

describe('setContent', () => {
  const noul = { urgent: { type: 'noul' as const, instructions: 'Urgent?' } };
  it('is text for a set about text, images for one with an image or a box question, unknown without content', () => {
    expect(setContent({ state: 'My parcel is late', questions: noul })).toBe('text');
    expect(setContent({ state: { ticket: 'late' }, questions: noul })).toBe('text');
    expect(setContent({ state: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }], questions: noul })).toBe('images');
    expect(setContent({ state: '', questions: { card: { type: 'box', instructions: 'The card' } } })).toBe('images');
    expect(setContent({ state: 'x', questions: noul, assets: { a: { format: 'png', data_base64: 'AAAA' } } })).toBe('images');
    expect(setContent({ state: '', questions: noul })).toBe('unknown');
    expect(setContent({ state: '  ', questions: noul })).toBe('unknown');
  });
});

describe('defaultDataset', () => {
  it('takes the dataset the set last ran on over the newest one', () => {
    const fits = [fit('shelf', 0), fit('tickets', 20, '2026-11-02T00:00:00Z'), fit('other', 20, '2026-11-01T00:00:00Z')];
    expect(defaultDataset(datasets, fits, null)).toBe('tickets');
  });

  it('keeps a dataset picked in the Datasets list while it exists', () => {
    const fits = [fit('tickets', 20, '2026-11-02T00:00:00Z')];
    expect(defaultDataset(datasets, fits, 'other')).toBe('other');
    expect(defaultDataset(datasets, fits, 'deleted')).toBe('tickets');
  });

  it('without a run of the set, takes the first dataset labelled for it, else the first', () => {
    expect(defaultDataset(datasets, [fit('shelf', 0), fit('tickets', 0), fit('other', 3)], null)).toBe('other');
    expect(defaultDataset(datasets, [fit('shelf', 0), fit('tickets', 0), fit('other', 0)], null)).toBe('shelf');
    expect(defaultDataset(datasets, undefined, null)).toBe('shelf');
    expect(defaultDataset([], undefined, null)).toBeNull();
  });

  it('ignores a run on a dataset no longer listed', () => {
    expect(defaultDataset(datasets, [fit('gone', 5, '2026-11-09T00:00:00Z'), fit('tickets', 5, '2026-11-01T00:00:00Z')], null)).toBe('tickets');
  });
});

describe('datasetOption', () => {
  it('says how many items are labelled for the set, in words at none and all', () => {
    expect(datasetOption({ name: 'shelf', items: 4 }, fit('shelf', 0, null, true))).toBe('shelf (4 images, none labelled for this set)');
    expect(datasetOption({ name: 'tickets', items: 20 }, fit('tickets', 20))).toBe('tickets (20 items, all labelled for this set)');
    expect(datasetOption({ name: 'tickets', items: 20 }, fit('tickets', 7))).toBe('tickets (20 items, 7 labelled for this set)');
    expect(datasetOption({ name: 'one', items: 1 }, undefined)).toBe('one (1 item)');
  });
});

describe('pairingProblems', () => {
  const set = { name: 'Support triage', questions: ['urgent', 'category'], content: 'text' as const };
  it('says nothing when the dataset is labelled for the set and of its kind', () => {
    expect(pairingProblems({ set, dataset: { name: 'tickets' }, fit: fit('tickets', 20) })).toEqual([]);
  });

  it('says when no item can be judged, and when text questions meet images', () => {
    const problems = pairingProblems({ set, dataset: { name: 'shelf' }, fit: fit('shelf', 0, null, true) });
    expect(problems).toHaveLength(2);
    expect(problems[0]).toContain('No item of “shelf” has an expected answer for any of the questions “urgent”, “category”');
    expect(problems[1]).toContain('“Support triage” asks about text, and the items of “shelf” are images');
  });

  it('says when image questions meet text, and nothing of kinds for a set without content', () => {
    expect(pairingProblems({ set: { ...set, content: 'images' }, dataset: { name: 'tickets' }, fit: fit('tickets', 3) })).toEqual([
      '“Support triage” asks about images, and the items of “tickets” are not images: the models would be sent text.',
    ]);
    expect(pairingProblems({ set: { ...set, content: 'unknown' }, dataset: { name: 'shelf' }, fit: fit('shelf', 2, null, true) })).toEqual([]);
  });
});
