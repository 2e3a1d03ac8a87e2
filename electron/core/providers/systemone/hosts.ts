import { lookUpHost, type DecisionHost, type DecisionHostRow } from '../decision-host';

/**
 * Hosts of the System One family (`state` + named questions, answers by name: the spec's own
 * shape), each row naming its documents. The fixtures and their sources are in
 * electron/test-support/fixtures/decisions/SOURCES.md; the literal limits below come from there.
 */

/** A System One server nobody documented for us (a catalog file's own, a local decision GGUF): TypeSafe's published contract. */
export const SYSTEM_ONE_DEFAULTS: DecisionHost = {
  name: 'this host',
  path: '/systemone',
  questionTypes: ['noul', 'choice', 'score'],
  images: 'none',
  limits: { questions: null, minOptions: 1, maxOptions: null, minLevels: 1, maxLevels: null, images: null, contextTokens: null, questionContextTokens: null },
  rounding: null,
  outputBilled: true,
  guidance: 'structured',
  envelope: 'none',
  assets: false,
  textItems: 'strings',
  source: "TypeSafe's System One OpenAPI 0.2.0 (the family's published contract)",
};

const TYPESAFE =
  'TypeSafe OpenAPI 0.2.0 (api.typesafe.ai/openapi.json, mirrored in api-evangelist/typesafe-ai); limits 255 options, 10 levels and 2-decimal rounding: vercel/ai packages/typesafe-ai; 64,000 / 32,000 tokens: docs.typesafe.ai/models as quoted by api-evangelist/typesafe-ai rate-limits';

export const SYSTEM_ONE_HOSTS: readonly DecisionHostRow[] = [
  {
    providers: ['typesafe'],
    model: /.*/,
    host: {
      name: 'TypeSafe',
      path: '/systemone',
      limits: { maxOptions: 255, maxLevels: 10, contextTokens: 64_000, questionContextTokens: 32_000 },
      rounding: { probabilityDecimals: 2, scoreDecimals: 2 },
      outputBilled: false,
      gaps: "TypeSafe's image and box beta (Jev 1.14, header TypeSafe-Danger-Zone-Images) takes images as multipart file parts whose format is not published",
    },
    source: TYPESAFE,
  },
  {
    providers: ['perplexity'],
    model: /.*/,
    host: {
      name: 'Perplexity',
      path: '/v1/decisions',
      images: 'state-parts',
      limits: { questions: 128, maxOptions: 255, maxLevels: 10, images: 8, contextTokens: 262_144 },
      rounding: { probabilityDecimals: 2, scoreDecimals: 2 },
      outputBilled: false,
    },
    source: 'juspay/neurolink docs providers/perplexity-decider.md (measured October 2026); docs.perplexity.ai/docs/decisions (prices, output free)',
  },
  {
    providers: ['portkey'],
    model: /.*/,
    host: {
      name: 'Portkey',
      path: '/v1/decisions',
      limits: { maxOptions: 255, maxLevels: 10 },
      rounding: { probabilityDecimals: 2, scoreDecimals: 2 },
      outputBilled: false,
    },
    source: "portkey.ai/docs/api-reference/inference-api/decisions (System One body; served through TypeSafe's Jev models, whose limits apply)",
  },
  {
    providers: ['fireworks'],
    model: /.*/,
    host: { name: 'Fireworks', path: '/systemone', gaps: 'Fireworks documents its decision routes as text only' },
    source: 'docs.fireworks.ai/api-reference/post-systemone and post-decisions (text only; limits not published)',
  },
  {
    providers: ['cloudflare'],
    model: /.*/,
    host: {
      name: 'Cloudflare Workers AI',
      path: '/{model}',
      images: 'images-array',
      limits: { questions: 64, minOptions: 2, maxOptions: 255, minLevels: 2, maxLevels: 10, images: 4, contextTokens: 65_536 },
      rounding: { probabilityDecimals: 4, scoreDecimals: 4 },
      outputBilled: false,
      envelope: 'cloudflare',
    },
    source:
      'juspay/neurolink docs providers/cloudflare-clef.md (documented and measured 2026-10-03/04); rounding: docs.instructorphp.com polyglot decision clef',
  },
  {
    providers: ['liquid'],
    model: /:free$/,
    host: { images: 'none', gaps: 'd1:free takes no images' },
    source: 'vercel/ai packages/liquid liquid-decision-model.ts',
  },
  {
    providers: ['liquid'],
    model: /.*/,
    host: { name: 'Liquid', path: '/systemone', images: 'images-array', limits: { images: 8 } },
    source:
      'vercel/ai packages/liquid (liquid-decision-api.ts, liquid-decision-images.ts: "Based on Liquid\'s official Decision Models documentation, checked 2026-10-06")',
  },
  {
    providers: ['sandbox-verity'],
    model: /.*/,
    host: { rounding: { probabilityDecimals: 2, scoreDecimals: 2 }, outputBilled: false },
    source: 'the simulated System One host (electron/core/sandbox/native-decisions.ts: two decimals, output free, as TypeSafe)',
  },
  {
    providers: ['llama-cpp', 'ollama'],
    model: /.*/,
    host: { name: 'Local server', path: '/systemone', outputBilled: false },
    source: 'llama-server and Ollama answer decision GGUFs at /v1/systemone (nullata/llamaMan 2.2.1 release notes; Spring AI docs)',
  },
];

/** The row for a provider's decision model, over the family's defaults; unknown hosts go by their display name. */
export function systemOneHost(provider: { slug: string; name: string }, model: string): DecisionHost {
  return lookUpHost(SYSTEM_ONE_HOSTS, provider.slug, model, { ...SYSTEM_ONE_DEFAULTS, name: provider.name });
}
