import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { unknownFields } from './unknown-fields';

describe('unknownFields', () => {
  const Schema = z.object({
    name: z.string(),
    limits: z.object({ credit_limit: z.number().nullable().default(null), rate: z.number().optional() }),
    tags: z.array(z.object({ label: z.string() })),
    extra: z.record(z.string(), z.number()),
  });

  it('names every field the parse left out, at any depth, with the nearest field not sent', () => {
    const raw = { name: 'n', limits: { credit_limt: 1 }, tags: [{ label: 'a' }, { label: 'b', colour: 'red' }], extra: { anything: 1 }, nmae: 'x' };
    const parsed = Schema.parse(raw);
    expect(unknownFields(raw, parsed)).toEqual([
      { path: ['limits', 'credit_limt'], suggestion: 'credit_limit' },
      { path: ['tags', 1, 'colour'], suggestion: null },
      { path: ['nmae'], suggestion: null },
    ]);
  });

  it('finds nothing when every field is known, records and defaults included', () => {
    const raw = { name: 'n', limits: {}, tags: [], extra: { a: 1, b: 2 } };
    expect(unknownFields(raw, Schema.parse(raw))).toEqual([]);
  });
});
