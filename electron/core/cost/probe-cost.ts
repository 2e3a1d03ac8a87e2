import { endpointSlug, type Catalog } from '../catalog/catalog';
import { PROBE_CHAT_TEXT, PROBE_NEEDS, PROBE_QUESTION, PROBE_STATE } from '../catalog/probe-request';
import { prepare } from '../decisions/prepare';
import { countTokens } from '../decisions/tokens';
import type { Upstreams } from '../decisions/upstreams';
import { priceCall } from './price';
import { CHAT_FRAME_TOKENS, endpointCost } from './request-cost';

/** What measuring a model's endpoints will cost at most, before anything is sent. */
export interface ProbeCost {
  endpoints: number;
  /** calls in all: `calls` to each endpoint */
  calls: number;
  /** USD at most (a chat call priced at its output cap); null when an endpoint's price is unknown */
  usd_at_most: number | null;
  /** the endpoints whose price is unknown, by their tag */
  unpriced: string[];
}

/**
 * Each endpoint's measuring call priced as it bills: a Decisions host's request counted as the cost
 * model counts any (request-cost.ts), a chat call's prompt counted with its frame and its output at
 * the cap it is sent with; times the calls each endpoint gets.
 */
export async function probeCost(deps: { catalog: Catalog; upstreams: Upstreams }, modelId: string, calls: number): Promise<ProbeCost> {
  const model = deps.catalog.model(modelId);
  const endpoints = deps.catalog.endpointsOf(modelId);
  const request = { model: modelId, state: PROBE_STATE, questions: PROBE_QUESTION };
  const chatInput = (await countTokens(PROBE_CHAT_TEXT)) + CHAT_FRAME_TOKENS;
  let total = 0;
  const unpriced: string[] = [];
  for (const endpoint of endpoints) {
    const one = endpoint.host
      ? (await endpointCost(deps.upstreams, endpoint, request, prepare(request, model), [])).usd
      : endpoint.prices.completion === null
        ? null
        : priceCall(endpoint.prices, { input: chatInput, output: PROBE_NEEDS.completionTokens });
    if (one === null) unpriced.push(endpointSlug(endpoint));
    else total += one * calls;
  }
  return { endpoints: endpoints.length, calls: endpoints.length * calls, usd_at_most: unpriced.length > 0 ? null : total, unpriced };
}
