import { z } from 'zod';
import { followPages, listingPage, withQuery, type ModelLister } from '../listing';
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
export const listGeminiModels: ModelLister = (baseUrl, apiKey, http, signal) =>
  followPages(async (token) => {
    const body = await listingPage(withQuery(`${baseUrl}/models`, { pageSize: PAGE_SIZE, pageToken: token }), GeminiList, {
      http,
      headers: geminiHeaders(apiKey),
      signal,
      classify: classifyGeminiError,
    });
    const models = body.models
      .filter((m) => (m.supportedGenerationMethods ?? ['generateContent']).includes('generateContent'))
      .map((m) => ({ id: m.name.replace(/^models\//, ''), name: m.displayName, contextLength: m.inputTokenLimit, maxOutput: m.outputTokenLimit }));
    return { models, next: body.nextPageToken };
  });
