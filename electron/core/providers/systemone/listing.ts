import { z } from 'zod';
import { listingPage, type ModelLister } from '../listing';
import { systemOneHeaders } from './adapter';
import { classifySystemOneError } from './errors';

/** TypeSafe's `ModelMetadataList` (OpenAPI 0.2.0): every field required. */
const SystemOneModels = z.object({ models: z.array(z.object({ name: z.string(), description: z.string(), release_date: z.string() })) });

/**
 * `GET {base_url}/models` of a System One host, in TypeSafe's shape (`{models: [{name, description,
 * release_date}]}`): the names a request's `model` takes, aliases included. Release dates are days,
 * read as midnight UTC.
 */
export const listSystemOneModels: ModelLister = async (baseUrl, apiKey, http, signal) => {
  const page = await listingPage(`${baseUrl.replace(/\/+$/, '')}/models`, SystemOneModels, {
    http,
    headers: systemOneHeaders(apiKey),
    signal,
    classify: classifySystemOneError,
  });
  return page.models.map((m) => {
    const released = Date.parse(`${m.release_date}T00:00:00Z`);
    return { id: m.name, name: m.description || m.name, created: Number.isNaN(released) ? undefined : Math.floor(released / 1000) };
  });
};
