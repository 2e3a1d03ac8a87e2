import { describe, expect, it } from 'vitest';
import type { DatasetSummary } from '../../../../shared/schemas/evaluation';
import { importHeadline } from './import-headline';

const dataset = {} as DatasetSummary;

describe('importHeadline', () => {
  it('counts rows and items in words, one or many', () => {
    expect(importHeadline({ dataset: null, imported: 0, skipped: 1 })).toBe('Nothing imported: 1 row with problems');
    expect(importHeadline({ dataset: null, imported: 0, skipped: 4 })).toBe('Nothing imported: 4 rows with problems');
    expect(importHeadline({ dataset, imported: 40, skipped: 0 })).toBe('Imported 40 items');
    expect(importHeadline({ dataset, imported: 1, skipped: 1 })).toBe('Imported 1 item, skipped 1 row with problems');
    expect(importHeadline({ dataset, imported: 1200, skipped: 3 })).toBe('Imported 1,200 items, skipped 3 rows with problems');
    expect(importHeadline({ dataset, imported: 20, skipped: 0, taken: 3 })).toBe('Imported 20 items, 3 answers read as suggested');
    expect(importHeadline({ dataset, imported: 20, skipped: 0, taken: 1 })).toBe('Imported 20 items, 1 answer read as suggested');
  });
});
