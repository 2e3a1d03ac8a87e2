import { describe, expect, it } from 'vitest';
import { ProviderPreferencesSchema } from '../schemas/provider-preferences';
import { summarizeIssues } from './result';

const problem = (value: unknown) => {
  const parsed = ProviderPreferencesSchema.safeParse(value);
  return parsed.success ? 'ok' : summarizeIssues(parsed.error);
};

describe("a value that fits none of a union's shapes", () => {
  it('is told the problem of the shape it is of the kind of, at its own path', () => {
    // sort is a key ("price", ...) or an object {by, partition}: a string is judged as a key.
    expect(problem({ sort: 'bogus' })).toBe('sort: Invalid option: expected one of "price"|"throughput"|"latency"|"exacto"');
    // An object is judged as the object, down to its field.
    expect(problem({ sort: { by: 'bogus' } })).toBe('sort.by: Invalid option: expected one of "price"|"throughput"|"latency"|"exacto"');
    expect(problem({ preferred_max_latency: { p50: 'fast' } })).toBe('preferred_max_latency.p50: Invalid input: expected number, received string');
  });

  it('is told which kinds may go there when it is of none of them', () => {
    expect(problem({ preferred_max_latency: 'fast' })).toBe('preferred_max_latency: expected number or object');
  });
});
