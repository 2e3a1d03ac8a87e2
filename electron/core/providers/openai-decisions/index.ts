import { GENERIC } from '../capabilities';
import type { WireModule } from '../wire-module';
import { openAiDecisionsAdapter } from './adapter';
import { openAiDecisionsHost } from './hosts';

/** OpenAI's Decisions family: native hosts with their rows, no model listing of its own. */
export const openAiDecisionsWire: WireModule = {
  wireFormat: 'openai-decisions',
  adapter: openAiDecisionsAdapter,
  capabilities: () => GENERIC,
  host: openAiDecisionsHost,
};
