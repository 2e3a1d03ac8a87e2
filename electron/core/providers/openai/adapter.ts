import type { ProviderAdapter } from '../types';
import { streamedChatAdapter } from '../streamed-chat';
import { openaiCall } from './request';
import { classifyOpenAiError } from './errors';
import { readOpenAiStream } from './stream';

/** OpenAI-compatible chat completions (OpenAI, Groq, Together, vLLM, llama.cpp, Ollama, LM Studio…). */
export const openaiAdapter: ProviderAdapter = streamedChatAdapter('openai', openaiCall, classifyOpenAiError, readOpenAiStream);
