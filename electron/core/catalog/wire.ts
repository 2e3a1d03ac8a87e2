/**
 * The user's catalog file, wired: read from the data directory at start into the catalog (a file
 * that cannot be loaded is left out, its problem kept for the app's info), and replaced as a whole.
 */
import { join } from 'node:path';
import type { CatalogFile } from '../../../shared/schemas/catalog';
import type { Logger } from '../logger';
import type { Catalog } from './catalog';
import { contributionOf, loadCatalogFile, saveCatalogFile } from './catalog-file';

export const CATALOG_FILE = 'catalog.json';

export interface CatalogFileSource {
  /** Why the file was not loaded at start, until it is replaced. */
  problem(): string | null;
  /** Saves the file and applies it. */
  replace(file: CatalogFile): Promise<void>;
}

export async function openCatalogFile(deps: { dataDir: string; catalog: Catalog; logger: Logger }): Promise<CatalogFileSource> {
  const { catalog } = deps;
  const catalogPath = join(deps.dataDir, CATALOG_FILE);
  const known = () => ({ providers: new Set(catalog.listProviders().map((p) => p.slug)), models: new Set(catalog.listModels().map((m) => m.id)) });
  const loaded = await loadCatalogFile(catalogPath, known().providers, known().models);
  if (loaded.problem) deps.logger.warn({ problem: loaded.problem }, 'catalog file not loaded');
  catalog.setSource('file', contributionOf(loaded.file));
  return {
    problem: () => loaded.problem,
    replace: async (file) => {
      await saveCatalogFile(catalogPath, file);
      loaded.problem = null;
      catalog.setSource('file', contributionOf(file));
    },
  };
}
