import { describe, expect, it } from 'vitest';
import { storeBackends } from '../../test-support/store-backends';
import { until } from '../../test-support/until';
import type { ProviderKeyDates, RefusalStorage, SettingsStorage } from './ports';
import { PgProviderKeyDates } from './postgres/provider-key-dates';
import { PgRefusalStore } from './postgres/refusal-store';
import { PgSettingsStore } from './postgres/settings-store';
import { SqliteProviderKeyDates } from './sqlite/provider-key-dates';
import { SqliteRefusalStore } from './sqlite/refusal-store';
import { SqliteSettingsStore } from './sqlite/settings-store';

/** The storage contracts of settings, learned refusals and provider-key dates, on both backends. */
interface Ports {
  settings: SettingsStorage;
  refusals: RefusalStorage;
  dates: ProviderKeyDates;
}

const backends = storeBackends<Ports>({
  sqlite: (store) => ({ settings: new SqliteSettingsStore(store), refusals: new SqliteRefusalStore(store), dates: new SqliteProviderKeyDates(store) }),
  postgres: async (db) => ({ settings: await PgSettingsStore.open(db), refusals: await PgRefusalStore.open(db), dates: new PgProviderKeyDates(db) }),
});

describe.each(backends)('SettingsStorage on %s', (_name, backend) => {
  it('keeps each value as it was given, replaces what is given again, and another connection reads the same', async () => {
    const { a, b, close } = await backend.open();
    try {
      expect(await a.settings.all()).toEqual({});
      const routing = { only: ['openai'], ignore: [], zdr: true };
      await a.settings.put({ theme: 'dark', routing, trace_destinations: [] });
      await a.settings.put({ theme: 'light' });
      expect(await b.settings.all()).toEqual({ theme: 'light', routing, trace_destinations: [] });
    } finally {
      await close();
    }
  });

  it('the change token moves when another connection changes a setting, and after its own', async () => {
    const { a, b, close } = await backend.open();
    try {
      const start = a.settings.changeToken();
      await b.settings.put({ theme: 'dark' });
      await until(
        () => a.settings.changeToken(),
        (t) => t !== start,
      );
      const own = a.settings.changeToken();
      await a.settings.put({ theme: 'light' });
      expect(a.settings.changeToken()).not.toBe(own);
    } finally {
      await close();
    }
  });
});

describe.each(backends)('RefusalStorage on %s', (_name, backend) => {
  it('keeps one refusal per endpoint and parameter, the latest, and forgets an endpoint whole', async () => {
    const { a, b, close } = await backend.open();
    try {
      const first = {
        endpointId: 'openai/o3',
        parameter: 'logprobs',
        message: 'You are not allowed to request logprobs',
        learned_at: '2026-01-01T00:00:00.000Z',
      };
      await a.refusals.put(first);
      await a.refusals.put({ ...first, message: 'again', learned_at: '2026-01-02T00:00:00.000Z' });
      await a.refusals.put({ endpointId: 'openai/o3', parameter: 'temperature', message: 'unsupported', learned_at: '2026-01-01T00:00:00.000Z' });
      await a.refusals.put({ endpointId: 'groq/llama', parameter: 'top_logprobs', message: 'no', learned_at: '2026-01-01T00:00:00.000Z' });
      expect(await b.refusals.all()).toEqual([
        { endpointId: 'groq/llama', parameter: 'top_logprobs', message: 'no', learned_at: '2026-01-01T00:00:00.000Z' },
        { ...first, message: 'again', learned_at: '2026-01-02T00:00:00.000Z' },
        { endpointId: 'openai/o3', parameter: 'temperature', message: 'unsupported', learned_at: '2026-01-01T00:00:00.000Z' },
      ]);
      await b.refusals.forget('openai/o3');
      expect((await a.refusals.all()).map((r) => r.endpointId)).toEqual(['groq/llama']);
    } finally {
      await close();
    }
  });

  it('the change token moves when another connection learns or forgets', async () => {
    const { a, b, close } = await backend.open();
    try {
      const start = a.refusals.changeToken();
      await b.refusals.put({ endpointId: 'e', parameter: 'p', message: 'm', learned_at: '2026-01-01T00:00:00.000Z' });
      await until(
        () => a.refusals.changeToken(),
        (t) => t !== start,
      );
      const learned = a.refusals.changeToken();
      await b.refusals.forget('e');
      await until(
        () => a.refusals.changeToken(),
        (t) => t !== learned,
      );
    } finally {
      await close();
    }
  });
});

describe.each(backends)('ProviderKeyDates on %s', (_name, backend) => {
  it('keeps when each provider key was set, the latest, until it is removed', async () => {
    const { a, b, close } = await backend.open();
    try {
      expect(await a.dates.get('openai')).toBeUndefined();
      await a.dates.set('openai', '2026-01-01T00:00:00.000Z');
      await a.dates.set('openai', '2026-01-02T00:00:00.000Z');
      await a.dates.set('groq', '2026-01-03T00:00:00.000Z');
      expect(await b.dates.get('openai')).toBe('2026-01-02T00:00:00.000Z');
      await b.dates.remove('openai');
      expect(await a.dates.get('openai')).toBeUndefined();
      expect(await a.dates.get('groq')).toBe('2026-01-03T00:00:00.000Z');
    } finally {
      await close();
    }
  });
});
