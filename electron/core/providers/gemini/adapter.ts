import type { ProviderAdapter } from '../types';
import { streamedChatAdapter } from '../streamed-chat';
import { geminiCall } from './request';
import { classifyGeminiError } from './errors';
import { readGeminiStream } from './stream';

/** Google Gemini generateContent, streamed as server-sent events; log-probabilities when asked. */
export const geminiAdapter: ProviderAdapter = streamedChatAdapter('gemini', geminiCall, classifyGeminiError, readGeminiStream);
