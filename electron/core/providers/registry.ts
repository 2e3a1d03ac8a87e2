import type { WireFormat } from '../../../shared/schemas/inspector';
import { anthropicAdapter } from './anthropic/adapter';
import { decisionsAdapter } from './decisions/adapter';
import { geminiAdapter } from './gemini/adapter';
import { openaiAdapter } from './openai/adapter';
import type { ProviderAdapter } from './types';

/** Adding a wire format: a folder beside this file and one line here. */
export const ADAPTERS: Record<WireFormat, ProviderAdapter> = {
  openai: openaiAdapter,
  anthropic: anthropicAdapter,
  gemini: geminiAdapter,
  decisions: decisionsAdapter,
};
