import { CascadePresetSchema, type CascadePreset, type CascadePresetInput } from '../../../shared/schemas/cascade-preset';
import { isoTime, type Clock } from '../clock';
import { GatewayError } from '../errors';
import type { CascadePresetStorage, StoredCascadePreset } from '../store/ports';

/**
 * Named cascades, saved from an evaluation's curve (or by hand) and used by name in requests and
 * question sets: one per name, saving again under a name replaces it.
 */
export class CascadePresets {
  constructor(
    private readonly storage: CascadePresetStorage,
    private readonly clock: Clock,
  ) {}

  /** A stored preset as the domain hands it out; one that no longer validates (an older, looser version wrote it) is an error. */
  private view(stored: StoredCascadePreset): CascadePreset {
    const parsed = CascadePresetSchema.safeParse(stored);
    if (!parsed.success) throw new GatewayError('internal', `Cascade preset "${stored.name}" no longer validates`);
    return parsed.data as CascadePreset;
  }

  async list(): Promise<CascadePreset[]> {
    return (await this.storage.list()).map((p) => this.view(p));
  }

  /** The preset of that name, or null when there is none (what a request naming a preset resolves). */
  async presetByName(name: string): Promise<CascadePreset | null> {
    const stored = await this.storage.get(name);
    return stored ? this.view(stored) : null;
  }

  /** Saves the preset under its name, replacing one of that name; whether it was new, and what it replaced (adopting a new threshold). */
  async save(input: CascadePresetInput): Promise<{ preset: CascadePreset; created: boolean; previous: CascadePreset | null }> {
    const before = await this.storage.get(input.name);
    const now = isoTime(this.clock);
    const stored: StoredCascadePreset = {
      name: input.name,
      model: input.model,
      first_model: input.first_model ?? null,
      when: input.when,
      source: input.source ?? null,
      created_at: before?.created_at ?? now,
      updated_at: now,
    };
    await this.storage.put(stored);
    return { preset: this.view(stored), created: !before, previous: before ? this.view(before) : null };
  }

  async delete(name: string): Promise<CascadePreset> {
    const stored = await this.storage.get(name);
    if (!stored) throw new GatewayError('not_found', `No cascade preset named "${name}"`);
    await this.storage.remove(name);
    return this.view(stored);
  }
}
