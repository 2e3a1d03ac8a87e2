import { z } from 'zod';
import { listingPage, type ModelLister } from '../listing';
import { classifyOpenAiError } from './errors';
import { openaiHeaders } from './request';

const OpenAiList = z.object({
  data: z.array(
    z.looseObject({
      id: z.string(),
      created: z.number().int().optional(),
      context_length: z.number().int().positive().optional(),
      max_model_len: z.number().int().positive().optional(),
    }),
  ),
});

/** `GET /models` of an OpenAI-compatible API: one page (OpenAI's listing is not paginated); vLLM's and OpenRouter's context lengths when given. */
export const listOpenAiModels: ModelLister = async (baseUrl, apiKey, http, signal) => {
  const page = await listingPage(`${baseUrl}/models`, OpenAiList, { http, headers: openaiHeaders(apiKey), signal, classify: classifyOpenAiError });
  return page.data.map((m) => ({ id: m.id, created: m.created, contextLength: m.context_length ?? m.max_model_len }));
};
