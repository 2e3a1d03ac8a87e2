import { GENERIC, lookUp, type Capabilities, type CapabilityRow } from '../capabilities';

const MESSAGES = 'https://docs.anthropic.com/en/api/messages';
const STRUCTURED = 'https://docs.anthropic.com/en/docs/build-with-claude/structured-outputs';

/**
 * Anthropic Messages. No log-probabilities on any model; thinking is off unless asked for, so
 * label questions need no room for it. Newer models refuse a temperature.
 */
export const ANTHROPIC_CAPABILITIES: readonly CapabilityRow[] = [
  {
    providers: '*',
    model: /^claude-(opus|sonnet|haiku)-([5-9]|4-[7-9])(?![0-9])/,
    caps: { temperature: false, structured: 'anthropic-output-format' },
    source: `${MESSAGES} (temperature deprecated from Claude Opus 4.7)`,
  },
  { providers: '*', model: /^claude-(opus-4-[1-6]|sonnet-4-5|haiku-4-5)(?![0-9])/, caps: { structured: 'anthropic-output-format' }, source: STRUCTURED },
  { providers: '*', model: /./, caps: {}, source: MESSAGES },
];

const BASE: Capabilities = { ...GENERIC, streamUsage: false, topLogprobs: 0, reasoning: 'budget', minThinkingBudget: 0 };

export const anthropicCapabilities = (provider: string, model: string): Capabilities => lookUp(ANTHROPIC_CAPABILITIES, provider, model, BASE);
