import type { z } from 'zod';
import { readText, type UpstreamHttp } from './http';
import { UpstreamError, upstreamJson, type ErrorClassifier } from './upstream-error';
import type { CancelSignal } from '../cancel';

/** One model as a provider's own listing describes it. */
export interface ListedModel {
  id: string;
  name?: string | undefined;
  /** Unix seconds */
  created?: number | undefined;
  contextLength?: number | undefined;
  maxOutput?: number | undefined;
}

/** Reads a provider's model listing in its own wire format (each provider folder's listing.ts). */
export type ModelLister = (baseUrl: string, apiKey: string | undefined, http: UpstreamHttp, signal: CancelSignal) => Promise<ListedModel[]>;

/** Most pages one listing is followed for; a provider that keeps saying "more" is cut off there. */
export const MAX_LISTING_PAGES = 20;

/** GETs one page of a listing and checks it against `schema`; failures are invalid responses naming the field. */
export async function listingPage<T>(
  url: string,
  schema: z.ZodType<T>,
  options: { http: UpstreamHttp; headers: Record<string, string>; signal: CancelSignal; classify?: ErrorClassifier },
): Promise<T> {
  const response = await options.http.get(url, { headers: options.headers, signal: options.signal, classify: options.classify });
  const text = await readText(response.body, options.signal);
  const json = upstreamJson(text, 'the model listing');
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new UpstreamError('invalid_response', `unexpected model listing (${parsed.error.issues[0]?.path.join('.') ?? ''})`);
  return parsed.data;
}

/**
 * The models of a cursor-paged listing, up to MAX_LISTING_PAGES pages: `page` fetches one (the first
 * with no cursor) and says its models and the cursor of the next; a page naming none, or the cursor
 * just followed, is the last (one that repeats itself cannot be followed).
 */
export async function followPages(
  page: (cursor: string | undefined) => Promise<{ models: ListedModel[]; next: string | null | undefined }>,
): Promise<ListedModel[]> {
  const models: ListedModel[] = [];
  let cursor: string | undefined;
  for (let n = 0; n < MAX_LISTING_PAGES; n++) {
    const { models: more, next } = await page(cursor);
    models.push(...more);
    if (!next || next === cursor) break;
    cursor = next;
  }
  return models;
}

/** `base` with query parameters added (values encoded; undefined ones left out). */
export function withQuery(base: string, query: Record<string, string | number | undefined>): string {
  const parts = Object.entries(query)
    .filter((e): e is [string, string | number] => e[1] !== undefined)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  return parts.length === 0 ? base : `${base}${base.includes('?') ? '&' : '?'}${parts.join('&')}`;
}
