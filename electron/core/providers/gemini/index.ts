import type { WireModule } from '../wire-module';
import { geminiAdapter } from './adapter';
import { geminiCapabilities } from './capabilities';
import { listGeminiModels } from './listing';

/** The gemini wire: a chat API with its capability table and model listing. */
export const geminiWire: WireModule = { wireFormat: 'gemini', adapter: geminiAdapter, capabilities: geminiCapabilities, listModels: listGeminiModels };
