import { SettingsSchema, type Settings } from '../../../shared/schemas/inspector';

export type SettingsPatch = { [K in keyof Settings]?: Settings[K] | undefined };
import type { SettingsStorage } from '../store/ports';

const DEFAULTS: Settings = {
  theme: 'system',
  sandbox: 'auto',
  routing: { only: [], ignore: [], zdr: false },
  gateway: { mode: 'built-in' },
  trace_destinations: [],
  image_urls: 'refuse',
  provider_accounts: {},
  review_blind: true,
  review_double_share: 0,
};

/**
 * User settings, one entry a setting; a stored value that no longer validates falls back to its
 * default. Read at open and kept; when another process changes them (the store's change token
 * moves), they are read again in the background and the next `get` sees them.
 */
export class SettingsStore {
  private cached: Settings = DEFAULTS;
  private token = -1;
  private reading: Promise<void> | null = null;

  private constructor(private readonly storage: SettingsStorage) {}

  static async open(storage: SettingsStorage): Promise<SettingsStore> {
    const settings = new SettingsStore(storage);
    await settings.read();
    return settings;
  }

  get(): Settings {
    if (this.storage.changeToken() !== this.token)
      // The database away: what was read last stays, and is read again once it answers (the token has not moved).
      this.reading ??= this.read()
        .catch(() => undefined)
        .finally(() => (this.reading = null));
    return this.cached;
  }

  private async read(): Promise<void> {
    const token = this.storage.changeToken();
    const stored = await this.storage.all();
    const merged: Record<string, unknown> = { ...DEFAULTS };
    for (const [key, value] of Object.entries(stored)) if (key in DEFAULTS) merged[key] = value;
    const parsed = SettingsSchema.safeParse(merged);
    this.cached = parsed.success ? parsed.data : DEFAULTS;
    this.token = token;
  }

  async update(patch: SettingsPatch): Promise<Settings> {
    const defined = Object.entries(patch).filter(([, value]) => value !== undefined);
    const next = SettingsSchema.parse({ ...this.get(), ...Object.fromEntries(defined) });
    await this.storage.put(Object.fromEntries(defined));
    this.cached = next;
    this.token = this.storage.changeToken();
    return next;
  }
}
