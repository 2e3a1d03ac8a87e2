import { readFile } from 'node:fs/promises';
import { CatalogFileSchema, type CatalogFile } from '../../../shared/schemas/catalog';
import type { ValidationProblem } from '../../../shared/contract/result';
import { parseStrictOrBadRequest } from '../validation';
import { jsonTextTooDeepAt, MAX_JSON_DEPTH } from '../json-depth';
import { GatewayError } from '../errors';
import { writeFileAtomic } from '../store/atomic-file';
import type { CatalogContribution } from './types';

/**
 * Checks a catalog file: its shape, then that every endpoint names a provider and a model that
 * exist (in the file or built in). Problems name the JSON path, e.g. `endpoints[2].provider`.
 */
export function validateCatalogFile(json: unknown, knownProviders: ReadonlySet<string>, knownModels: ReadonlySet<string>): CatalogFile {
  const file = parseStrictOrBadRequest(CatalogFileSchema, json, 'catalog');
  const providers = new Set([...knownProviders, ...file.providers.map((p) => p.slug)]);
  const models = new Set([...knownModels, ...file.models.map((m) => m.id)]);
  const problems: ValidationProblem[] = [];
  const seen = new Set<string>();
  file.endpoints.forEach((e, i) => {
    if (!providers.has(e.provider)) problems.push({ path: `endpoints[${i}].provider`, message: `unknown provider "${e.provider}"` });
    if (!models.has(e.model_id)) problems.push({ path: `endpoints[${i}].model_id`, message: `unknown model "${e.model_id}"` });
    const key = `${e.provider}/${e.tag ?? e.provider}/${e.model_id}`;
    if (seen.has(key)) problems.push({ path: `endpoints[${i}]`, message: `duplicate endpoint ${key}` });
    seen.add(key);
  });
  const slugs = new Set<string>();
  file.providers.forEach((p, i) => {
    if (slugs.has(p.slug)) problems.push({ path: `providers[${i}].slug`, message: `duplicate provider "${p.slug}"` });
    slugs.add(p.slug);
  });
  if (problems.length > 0) {
    const text = problems
      .slice(0, 5)
      .map((p) => `${p.path}: ${p.message}`)
      .join('; ');
    throw new GatewayError('bad_request', `Invalid catalog: ${text}`, { metadata: { problems } });
  }
  return file;
}

export function contributionOf(file: CatalogFile): CatalogContribution {
  return {
    providers: file.providers.map((p) => ({ ...p, source: 'file', simulated: false })),
    models: file.models.map((m) => ({ ...m, source: 'file' })),
    endpoints: file.endpoints,
  };
}

export const EMPTY_CATALOG_FILE: CatalogFile = { version: 1, providers: [], models: [], endpoints: [] };

/** Reads the catalog file; a missing file is an empty catalog, a bad one is reported and left alone. */
export async function loadCatalogFile(
  path: string,
  knownProviders: ReadonlySet<string>,
  knownModels: ReadonlySet<string>,
): Promise<{ file: CatalogFile; problem: string | null }> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { file: EMPTY_CATALOG_FILE, problem: null };
    return { file: EMPTY_CATALOG_FILE, problem: `${path} could not be read: ${(error as Error).message}` };
  }
  if (jsonTextTooDeepAt(text) >= 0)
    return { file: EMPTY_CATALOG_FILE, problem: `${path} was not loaded and was left untouched: it nests deeper than ${MAX_JSON_DEPTH} levels` };
  try {
    return { file: validateCatalogFile(JSON.parse(text), knownProviders, knownModels), problem: null };
  } catch (error) {
    const reason = error instanceof GatewayError ? error.message : `not valid JSON (${(error as Error).message})`;
    return { file: EMPTY_CATALOG_FILE, problem: `${path} was not loaded and was left untouched: ${reason}` };
  }
}

export const saveCatalogFile = (path: string, file: CatalogFile): Promise<void> => writeFileAtomic(path, `${JSON.stringify(file, null, 2)}\n`, 0o600);
