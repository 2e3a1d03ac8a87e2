import { z } from 'zod';
import { followPages, listingPage, withQuery, type ModelLister } from '../listing';
import { classifyAnthropicError } from './errors';
import { anthropicHeaders } from './request';

const AnthropicList = z.object({
  data: z.array(z.looseObject({ id: z.string(), display_name: z.string().optional(), created_at: z.string().optional() })),
  has_more: z.boolean().optional(),
  last_id: z.string().nullable().optional(),
});

/** Largest page the Models API gives (https://docs.anthropic.com/en/api/models-list: `limit` 1 to 1000). */
const PAGE_SIZE = 1000;

/** `GET /v1/models`, following `has_more` with `after_id` set to the page's `last_id`, up to MAX_LISTING_PAGES pages. */
export const listAnthropicModels: ModelLister = (baseUrl, apiKey, http, signal) =>
  followPages(async (after) => {
    const body = await listingPage(withQuery(`${baseUrl}/models`, { limit: PAGE_SIZE, after_id: after }), AnthropicList, {
      http,
      headers: anthropicHeaders(apiKey),
      signal,
      classify: classifyAnthropicError,
    });
    const models = body.data.map((m) => ({ id: m.id, name: m.display_name, created: m.created_at ? Math.floor(Date.parse(m.created_at) / 1000) : undefined }));
    // A page that says "more" but names no last id (or repeats it) cannot be followed.
    return { models, next: body.has_more ? body.last_id : null };
  });
