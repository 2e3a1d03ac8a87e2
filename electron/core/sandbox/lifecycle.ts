import type { Catalog } from '../catalog/catalog';
import type { ImagePool } from '../images/pool';
import type { ProviderKeys } from '../keys/provider-keys';
import type { SettingsStore } from '../settings/settings';
import { startSandboxFleet, type FleetOptions, type SandboxFleet } from './fleet';

/**
 * The simulated fleet's life: on while the settings say so, or (`auto`) while no real provider is
 * configured (no catalog file or discovered endpoints, no provider key); its catalog entries with it.
 * Changes are made one after another, never two at once.
 */
export class SandboxLifecycle {
  private fleet: SandboxFleet | null = null;
  private change: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly deps: { catalog: Catalog; settings: SettingsStore; providerKeys: ProviderKeys; images: ImagePool; options: FleetOptions | undefined },
  ) {}

  /** The fleet while it is on. */
  current(): SandboxFleet | null {
    return this.fleet;
  }

  /** Turns the fleet on or off as the settings and the configured providers now say. */
  refresh(): Promise<void> {
    this.change = this.change.then(async () => {
      if (this.closed) return;
      const wanted = await this.wanted();
      if (wanted && !this.fleet) {
        this.fleet = await startSandboxFleet({ ...this.deps.options, images: this.deps.images });
        this.deps.catalog.setSource('sandbox', this.fleet.catalog);
      } else if (!wanted && this.fleet) {
        const closing = this.fleet;
        this.fleet = null;
        this.deps.catalog.setSource('sandbox', undefined);
        await closing.close();
      }
    });
    return this.change;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.change;
    await this.fleet?.close();
    this.fleet = null;
  }

  private async wanted(): Promise<boolean> {
    const { catalog, settings, providerKeys } = this.deps;
    const mode = settings.get().sandbox;
    if (mode !== 'auto') return mode === 'on';
    const fileEndpoints = catalog.source('file')?.endpoints?.length ?? 0;
    const discoveredEndpoints = catalog.source('discovered')?.endpoints?.length ?? 0;
    if (fileEndpoints > 0 || discoveredEndpoints > 0) return false;
    for (const p of catalog.listProviders()) {
      if (!p.simulated && !p.local && (await providerKeys.state(p.slug)).key_set) return false;
    }
    return true;
  }
}
