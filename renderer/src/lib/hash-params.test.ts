import { describe, expect, it } from 'vitest';
import { hashParams, screenLink } from './hash-params';

describe("a screen's address", () => {
  it('carries what the next screen opens on, encoded, and reads it back', () => {
    const link = screenLink('evaluations', { new: true, dataset: 'ds 1&2', set: 'set-9' });
    expect(link).toBe('#/evaluations?new&dataset=ds%201%262&set=set-9');
    const params = hashParams(link);
    expect(params.has('new')).toBe(true);
    expect(params.get('dataset')).toBe('ds 1&2');
    expect(hashParams('#/review').get('dataset')).toBeNull();
  });
});
