import type { WireModule } from '../wire-module';
import { anthropicAdapter } from './adapter';
import { anthropicCapabilities } from './capabilities';
import { listAnthropicModels } from './listing';

/** The anthropic wire: a chat API with its capability table and model listing. */
export const anthropicWire: WireModule = {
  wireFormat: 'anthropic',
  adapter: anthropicAdapter,
  capabilities: anthropicCapabilities,
  listModels: listAnthropicModels,
};
