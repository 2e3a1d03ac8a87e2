import type { WireFormat } from '../../../shared/schemas/inspector';
import { MODELS_DEV_SOURCE, modelsDevEntry } from '../catalog/models-dev';
import { GENERIC, type Capabilities } from './capabilities';
import type { DecisionHost } from './decision-host';
import { anthropicWire } from './anthropic';
import { decisionsWire } from './decisions';
import { geminiWire } from './gemini';
import { openAiWire } from './openai';
import { openAiDecisionsWire } from './openai-decisions';
import { systemOneWire } from './systemone';
import type { WireModule } from './wire-module';

/** The one table of wire formats. Adding a wire format: a folder beside this file (its index.ts) and one line here. */
export const WIRES: Record<WireFormat, WireModule> = {
  openai: openAiWire,
  anthropic: anthropicWire,
  gemini: geminiWire,
  decisions: decisionsWire,
  systemone: systemOneWire,
  'openai-decisions': openAiDecisionsWire,
};

/** The host row of an endpoint reached through a Decisions wire format; null for chat APIs. */
export function decisionHost(wire: WireFormat, provider: { slug: string; name: string }, upstreamModel: string): DecisionHost | null {
  return WIRES[wire].host?.(provider, upstreamModel) ?? null;
}

/**
 * An endpoint's capabilities: its provider folder's row for the model, then what a catalog file
 * (the user's word) or the simulated fleet lists in `supported_parameters`.
 */
export function endpointCapabilities(wire: WireFormat, provider: string, upstreamModel: string, listed: readonly string[], userListed: boolean): Capabilities {
  const caps = withModelsDev(WIRES[wire].capabilities(provider, upstreamModel), provider, upstreamModel);
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
