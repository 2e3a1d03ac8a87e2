import { GENERIC, lookUp, type Capabilities, type CapabilityRow } from '../capabilities';

const THINKING = 'https://ai.google.dev/gemini-api/docs/thinking';
const LOGPROBS = 'https://ai.google.dev/api/generate-content#generationconfig';

/**
 * Gemini generateContent. Log-probabilities only on the 1.5 and 2.0 families ("Logprobs is not
 * enabled" on 2.5 and 3); 2.5 Flash can switch thinking off, 2.5 Pro thinks at least 128 tokens,
 * Gemini 3 takes a thinking level. Thinking tokens count against maxOutputTokens.
 */
export const GEMINI_CAPABILITIES: readonly CapabilityRow[] = [
  {
    providers: '*',
    model: /^(models\/)?gemini-[3-9]/,
    caps: { topLogprobs: 0, reasoning: 'level', minimalEffort: 'low', thinkingRoom: 2048 },
    source: THINKING,
  },
  {
    providers: '*',
    model: /^(models\/)?gemini-2\.5-pro/,
    caps: { topLogprobs: 0, reasoning: 'budget', minThinkingBudget: 128, thinkingRoom: 256 },
    source: THINKING,
  },
  { providers: '*', model: /^(models\/)?gemini-2\.5/, caps: { topLogprobs: 0, reasoning: 'budget', minThinkingBudget: 0 }, source: THINKING },
  { providers: '*', model: /^(models\/)?gemini-(1\.5|2\.0)/, caps: { topLogprobs: 20 }, source: LOGPROBS },
  { providers: '*', model: /./, caps: {}, source: LOGPROBS },
];

const BASE: Capabilities = { ...GENERIC, streamUsage: false, topLogprobs: 0, structured: 'gemini-schema' };

export const geminiCapabilities = (provider: string, model: string): Capabilities => lookUp(GEMINI_CAPABILITIES, provider, model, BASE);
