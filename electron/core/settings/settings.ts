import { SettingsSchema, type Settings } from '../../../shared/schemas/inspector';

export type SettingsPatch = { [K in keyof Settings]?: Settings[K] | undefined };
import type { Store } from '../store/sqlite/database';

const DEFAULTS: Settings = { theme: 'system', sandbox: 'auto', routing: { only: [], ignore: [], zdr: false }, gateway: { mode: 'built-in' }, trace_destinations: [], image_urls: 'refuse' };

/** User settings, one row per key; a stored value that no longer validates falls back to its default. */
export class SettingsStore {
  /** Only this process writes settings, so they are read from disk once and kept. */
  private cached: Settings | null = null;

  constructor(private readonly store: Store) {}

  get(): Settings {
    this.cached ??= this.read();
    return this.cached;
  }

  private read(): Settings {
    const rows = this.store.all<{ key: string; value: string }>('SELECT key, value FROM settings');
    const merged: Record<string, unknown> = { ...DEFAULTS };
    for (const row of rows) {
      if (!(row.key in DEFAULTS)) continue;
      try {
        merged[row.key] = JSON.parse(row.value);
      } catch {
        // A damaged value keeps its default; the row stays as it is for inspection.
      }
    }
    const parsed = SettingsSchema.safeParse(merged);
    return parsed.success ? parsed.data : DEFAULTS;
  }

  update(patch: SettingsPatch): Settings {
    const defined = Object.entries(patch).filter(([, value]) => value !== undefined);
    const next = SettingsSchema.parse({ ...this.get(), ...Object.fromEntries(defined) });
    this.store.transaction(() => {
      for (const [key, value] of defined) {
        this.store.run(
          'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
          [key, JSON.stringify(value)],
        );
      }
    });
    this.cached = next;
    return next;
  }
}
