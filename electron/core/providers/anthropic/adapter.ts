import type { ProviderAdapter } from '../types';
import { streamedChatAdapter } from '../streamed-chat';
import { anthropicCall } from './request';
import { classifyAnthropicError } from './errors';
import { readAnthropicStream } from './stream';

/** Anthropic Messages API, streamed. It has no token log-probabilities. */
export const anthropicAdapter: ProviderAdapter = streamedChatAdapter('anthropic', anthropicCall, classifyAnthropicError, readAnthropicStream);
