import { z } from 'zod';
import { MAX_LISTING_PAGES, listingPage, withQuery, type ListedModel, type ModelLister } from '../listing';
import { classifyGeminiError } from './errors';
import { geminiHeaders } from './request';

const GeminiList = z.object({
  models: z
    .array(
      z.looseObject({
        name: z.string(),
        displayName: z.string().optional(),
        inputTokenLimit: z.number().int().positive().optional(),
        outputTokenLimit: z.number().int().positive().optional(),
        supportedGenerationMethods: z.array(z.string()).optional(),
      }),
    )
    // The last page of a listing may carry no models at all.
    .default([]),
  nextPageToken: z.string().optional(),
});

/** Largest page models.list gives (https://ai.google.dev/api/models#method:-models.list: `pageSize` up to 1000). */
const PAGE_SIZE = 1000;

/** `GET /v1beta/models`, following `nextPageToken` with `pageToken`, up to MAX_LISTING_PAGES pages; only models that generate content. */
export const listGeminiModels: ModelLister = async (baseUrl, apiKey, http, signal) => {
  const models: ListedModel[] = [];
  let token: string | undefined;
  for (let page = 0; page < MAX_LISTING_PAGES; page++) {
    const body = await listingPage(withQuery(`${baseUrl}/models`, { pageSize: PAGE_SIZE, pageToken: token }), GeminiList, {
      http,
      headers: geminiHeaders(apiKey),
      signal,
      classify: classifyGeminiError,
    });
    for (const m of body.models) {
      if (!(m.supportedGenerationMethods ?? ['generateContent']).includes('generateContent')) continue;
      models.push({ id: m.name.replace(/^models\//, ''), name: m.displayName, contextLength: m.inputTokenLimit, maxOutput: m.outputTokenLimit });
    }
    if (!body.nextPageToken || body.nextPageToken === token) break;
    token = body.nextPageToken;
  }
  return models;
};
