import { lookUpHost, type DecisionHost, type DecisionHostRow } from '../decision-host';

/**
 * Another gateway's `/api/alpha/decisions` (the spec's own route, so the spec's own shape: box
 * questions and images in `state` included). OpenRouter's row names its documents.
 */
export const GATEWAY_DEFAULTS: DecisionHost = {
  name: 'this gateway',
  path: '/api/alpha/decisions',
  questionTypes: ['noul', 'choice', 'score', 'box'],
  images: 'state-parts',
  limits: { questions: null, minOptions: 1, maxOptions: null, minLevels: 1, maxLevels: null, images: null, contextTokens: null, questionContextTokens: null },
  rounding: null,
  outputBilled: true,
  guidance: 'structured',
  envelope: 'none',
  assets: true,
  textItems: 'as-sent',
  source: 'the gateway API specification (POST {host_url}/api/alpha/decisions)',
};

const OPENROUTER =
  'OpenRouterTeam/skills openrouter-decisions references (decisions-api.md, models.md); openrouter.ai/docs/guides/community/multimodal-decisions; rounding: @openrouter/ai-sdk-provider 3.1.0 DECISIONS_ROUNDING';

export const GATEWAY_HOSTS: readonly DecisionHostRow[] = [
  {
    providers: ['sandbox-oracle'],
    model: /.*/,
    host: { rounding: { probabilityDecimals: 2, scoreDecimals: 2 }, outputBilled: false },
    source: 'the simulated gateway (electron/core/sandbox/native-decisions.ts: two decimals, output free, as OpenRouter)',
  },
  {
    providers: ['openrouter'],
    model: /clef/,
    host: { limits: { images: 4 } },
    source: 'openrouter.ai/docs multimodal decisions ("at most 4 images per request to Clef and Clef Flash")',
  },
  {
    providers: ['openrouter'],
    model: /gpt-6-luna/,
    host: { limits: { images: 128 } },
    source: 'openrouter.ai/docs multimodal decisions ("at most 128 to GPT-6 Luna Decisions")',
  },
  {
    providers: ['openrouter'],
    model: /.*/,
    host: { name: 'OpenRouter', rounding: { probabilityDecimals: 2, scoreDecimals: 2 }, textItems: 'strings' },
    source: OPENROUTER,
  },
];

export function gatewayHost(provider: { slug: string; name: string }, model: string): DecisionHost {
  return lookUpHost(GATEWAY_HOSTS, provider.slug, model, { ...GATEWAY_DEFAULTS, name: provider.name });
}
