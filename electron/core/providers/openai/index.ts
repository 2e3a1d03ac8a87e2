import type { WireModule } from '../wire-module';
import { openaiAdapter } from './adapter';
import { openaiCapabilities } from './capabilities';
import { listOpenAiModels } from './listing';

/** The openai wire: a chat API with its capability table and model listing. */
export const openAiWire: WireModule = { wireFormat: 'openai', adapter: openaiAdapter, capabilities: openaiCapabilities, listModels: listOpenAiModels };
