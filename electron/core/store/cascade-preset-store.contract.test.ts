import { describe, expect, it } from 'vitest';
import { storeBackends } from '../../test-support/store-backends';
import type { CascadePresetStorage, StoredCascadePreset } from './ports';
import { PgCascadePresetStore } from './postgres/cascade-preset-store';
import { SqliteCascadePresetStore } from './sqlite/cascade-preset-store';

/** The cascade presets' storage contract, on both backends. */
const backends = storeBackends<CascadePresetStorage>({
  sqlite: (store) => new SqliteCascadePresetStore(store),
  postgres: (db) => new PgCascadePresetStore(db),
});

const preset = (name: string, over: Partial<StoredCascadePreset> = {}): StoredCascadePreset => ({
  name,
  model: 'sandbox/large-text',
  first_model: 'sandbox/baseline-text',
  when: { question: 'mood', confidenceBelow: 0.8 },
  source: { run_id: 'eval-1', threshold: 0.8, accuracy: 0.95, cost_per_item: 0.0006 },
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  ...over,
});

describe.each(backends)('CascadePresetStorage on %s', (_name, backend) => {
  it('keeps each preset as given (a nested condition in its order), lists them by name, and another connection reads the same', async () => {
    const { a, b, close } = await backend.open();
    try {
      const nested = preset('triage', {
        when: { any: [{ question: 'urgent', probabilityBetween: [0.3, 0.7] }, { atLeast: { count: 1, conditions: [{ confidenceBelow: 0.5 }] } }] },
        first_model: null,
        source: null,
      });
      const other = preset('Billing');
      await a.put(nested);
      await a.put(other);
      expect(await b.get('triage')).toEqual(nested);
      expect(Object.keys((await b.get('triage'))!.when as object)).toEqual(['any']);
      // By name as its characters sort: upper case before lower.
      expect((await b.list()).map((p) => p.name)).toEqual(['Billing', 'triage']);
      expect(await b.get('nope')).toBeUndefined();
    } finally {
      await close();
    }
  });

  it('a preset saved again under its name replaces it, keeping when it was created; removing says whether there was one', async () => {
    const { a, b, close } = await backend.open();
    try {
      await a.put(preset('triage'));
      const again = preset('triage', {
        model: 'sandbox/other',
        first_model: null,
        when: { confidenceBelow: 0.5 },
        source: null,
        created_at: '2026-02-01T00:00:00.000Z',
        updated_at: '2026-02-01T00:00:00.000Z',
      });
      await b.put(again);
      expect(await a.get('triage')).toEqual({ ...again, created_at: '2026-01-01T00:00:00.000Z' });
      expect(await a.list()).toHaveLength(1);
      expect(await b.remove('triage')).toBe(true);
      expect(await a.remove('triage')).toBe(false);
      expect(await a.get('triage')).toBeUndefined();
    } finally {
      await close();
    }
  });
});
