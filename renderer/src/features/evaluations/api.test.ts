import { describe, expect, it } from 'vitest';
import { evalKeys, sameRunPlaceholder } from './api';

describe('sameRunPlaceholder', () => {
  const report = { models: [] };
  it("keeps a run's last data while it is fetched again with more answers done", () => {
    expect(sameRunPlaceholder('run-a')(report, { queryKey: evalKeys.report('run-a', 3) })).toBe(report);
  });
  it("never shows another run's data as this run's", () => {
    expect(sameRunPlaceholder('run-b')(report, { queryKey: evalKeys.report('run-a', 3) })).toBeUndefined();
    expect(sameRunPlaceholder('')(report, { queryKey: evalKeys.report('run-a', 3) })).toBeUndefined();
  });
  it('has nothing to keep before the first fetch', () => {
    expect(sameRunPlaceholder('run-a')(undefined, undefined)).toBeUndefined();
  });
});
