import type { WireFormat } from '../../../shared/schemas/inspector';
import { anthropicAdapter } from './anthropic/adapter';
import { decisionsAdapter } from './decisions/adapter';
import { gatewayHost } from './decisions/hosts';
import { openAiDecisionsAdapter } from './openai-decisions/adapter';
import { openAiDecisionsHost } from './openai-decisions/hosts';
import { systemOneAdapter } from './systemone/adapter';
import { systemOneHost } from './systemone/hosts';
import type { DecisionHost } from './decision-host';
import { geminiAdapter } from './gemini/adapter';
import { openaiAdapter } from './openai/adapter';
import type { ProviderAdapter } from './types';
import { GENERIC, type Capabilities } from './capabilities';
import { MODELS_DEV_SOURCE, modelsDevEntry } from '../catalog/models-dev';
import { anthropicCapabilities } from './anthropic/capabilities';
import { geminiCapabilities } from './gemini/capabilities';
import { openaiCapabilities } from './openai/capabilities';

/** Adding a wire format: a folder beside this file and one line here. */
export const ADAPTERS: Record<WireFormat, ProviderAdapter> = {
  openai: openaiAdapter,
  anthropic: anthropicAdapter,
  gemini: geminiAdapter,
  decisions: decisionsAdapter,
  systemone: systemOneAdapter,
  'openai-decisions': openAiDecisionsAdapter,
};

/** Each wire format's capability table: what a provider's model accepts. */
export const CAPABILITIES: Record<WireFormat, (provider: string, model: string) => Capabilities> = {
  openai: openaiCapabilities,
  anthropic: anthropicCapabilities,
  gemini: geminiCapabilities,
  decisions: () => GENERIC,
  systemone: () => GENERIC,
  'openai-decisions': () => GENERIC,
};

/** Each Decisions wire format's host table: what a host that answers natively takes and how. */
const DECISION_HOSTS: Partial<Record<WireFormat, (provider: { slug: string; name: string }, model: string) => DecisionHost>> = {
  decisions: gatewayHost,
  systemone: systemOneHost,
  'openai-decisions': openAiDecisionsHost,
};

/** The host row of an endpoint reached through a Decisions wire format; null for chat APIs. */
export function decisionHost(wire: WireFormat, provider: { slug: string; name: string }, upstreamModel: string): DecisionHost | null {
  return DECISION_HOSTS[wire]?.(provider, upstreamModel) ?? null;
}

/**
 * An endpoint's capabilities: its provider folder's row for the model, then what a catalog file
 * (the user's word) or the simulated fleet lists in `supported_parameters`.
 */
export function endpointCapabilities(wire: WireFormat, provider: string, upstreamModel: string, listed: readonly string[], userListed: boolean): Capabilities {
  const caps = withModelsDev(CAPABILITIES[wire](provider, upstreamModel), provider, upstreamModel);
  if (!userListed || listed.length === 0) return caps;
  const has = (p: string) => listed.includes(p);
  return {
    ...caps,
    topLogprobs: has('logprobs') ? caps.topLogprobs || 20 : 0,
    tokenLimit:
      has('max_completion_tokens') && !has('max_tokens')
        ? 'max_completion_tokens'
        : has('max_tokens') && !has('max_completion_tokens')
          ? 'max_tokens'
          : caps.tokenLimit,
    source: caps.source === GENERIC.source ? 'supported_parameters in the catalog' : `${caps.source}; supported_parameters in the catalog`,
  };
}

/** models.dev's flags under the table: a model it says refuses a temperature gets none; one that reasons gets room. */
function withModelsDev(caps: Capabilities, provider: string, upstreamModel: string): Capabilities {
  const known = modelsDevEntry(provider, upstreamModel);
  if (!known) return caps;
  const next = { ...caps };
  if (known.temperature === false) next.temperature = false;
  if (known.reasoning === true && caps.reasoning === 'none') next.thinkingRoom = Math.max(caps.thinkingRoom, 1024);
  if (next.temperature === caps.temperature && next.thinkingRoom === caps.thinkingRoom) return caps;
  return { ...next, source: `${caps.source}; ${MODELS_DEV_SOURCE}` };
}
