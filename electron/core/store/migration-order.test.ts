import { describe, expect, it } from 'vitest';
import { inVersionOrder } from './migration-order';
import { STEPS as pgKeys } from './postgres/migrations/keys';
import { STEPS as keys } from './sqlite/migrations/keys';
import { STEPS as metrics } from './sqlite/migrations/metrics';

describe('inVersionOrder', () => {
  it("puts every domain's steps in version order, whatever order the domains and their steps are given in", () => {
    expect(
      inVersionOrder('SQLite', {
        keys: [
          { version: 4, sql: 'd' },
          { version: 2, sql: 'b' },
        ],
        shared: [{ version: 1, sql: 'a' }],
        metrics: [{ version: 3, sql: 'c' }],
      }),
    ).toEqual(['a', 'b', 'c', 'd']);
    expect(inVersionOrder('SQLite', {})).toEqual([]);
  });

  it('refuses two steps of one version, naming both files', () => {
    expect(() =>
      inVersionOrder('SQLite', {
        keys: [
          { version: 1, sql: 'a' },
          { version: 2, sql: 'b' },
        ],
        metrics: [{ version: 2, sql: 'c' }],
      }),
    ).toThrow(/^SQLite schema: version 2 is claimed twice, by a step in keys\.ts and by a step in metrics\.ts\./);
    // A new step in the keys' file numbered like a released one of the metrics.
    const taken = metrics[0]!.version;
    expect(() => inVersionOrder('SQLite', { metrics, keys: [...keys, { version: taken, sql: 'SELECT 1' }] })).toThrow(
      new RegExp(`^SQLite schema: version ${taken} is claimed twice, by a step in metrics\\.ts and by a step in keys\\.ts\\.`),
    );
    expect(() => inVersionOrder('Postgres', { keys: [...pgKeys, pgKeys[0]!] })).toThrow(
      /^Postgres schema: version 1 is claimed twice, by a step in keys\.ts and by a step in keys\.ts\./,
    );
  });

  it('refuses a missing version, naming it and the files of the versions around it', () => {
    expect(() =>
      inVersionOrder('Postgres', {
        shared: [{ version: 1, sql: 'a' }],
        keys: [{ version: 2, sql: 'b' }],
        metrics: [{ version: 5, sql: 'e' }],
      }),
    ).toThrow(/^Postgres schema: no step has version 3 \(version 2 is in keys\.ts, version 5 in metrics\.ts\)\. Versions run 1, 2, 3\.\.\. without a gap/);
    expect(() => inVersionOrder('SQLite', { keys: [{ version: 2, sql: 'b' }] })).toThrow(/^SQLite schema: no step has version 1 \(version 2 in keys\.ts\)\./);
  });

  it('refuses a version that is not a whole number from 1', () => {
    expect(() => inVersionOrder('SQLite', { keys: [{ version: 0, sql: 'a' }] })).toThrow(/^SQLite schema: a step in keys\.ts has version 0;/);
    expect(() => inVersionOrder('SQLite', { keys: [{ version: 1.5, sql: 'a' }] })).toThrow(/has version 1\.5;/);
  });
});
