import { lookUpHost, type DecisionHost, type DecisionHostRow } from '../decision-host';

/**
 * Hosts of OpenAI's Decisions family (`input` + ordered questions of type predicate, choice and
 * score; answers in question order, a refusal per question), each row naming its documents.
 */

const OPENAI_TYPES = '`openai` 7.55.0 resources/decisions.d.ts ("Ask 1–400 questions", "Provide between 2 and 255 choices")';

/** The family's contract as OpenAI types it; a host of the family that documents nothing else gets it. */
export const OPENAI_DECISIONS_DEFAULTS: DecisionHost = {
  name: 'this host',
  path: '/decisions',
  questionTypes: ['noul', 'choice', 'score'],
  images: 'input-image',
  // Levels: the shape has no score without two (promptfoo and Google hold to 2 as well).
  limits: { questions: 400, minOptions: 2, maxOptions: 255, minLevels: 2, maxLevels: null, images: null, contextTokens: null, questionContextTokens: null },
  rounding: { probabilityDecimals: 2, scoreDecimals: 2 },
  outputBilled: false,
  guidance: 'structured',
  envelope: 'none',
  assets: false,
  textItems: 'as-sent',
  source: `${OPENAI_TYPES}; rounding: @ai-sdk/openai 4.0.118 ("reports probabilities and scores to two decimal places")`,
};

export const OPENAI_DECISIONS_HOSTS: readonly DecisionHostRow[] = [
  {
    providers: ['sandbox-arbiter'],
    model: /.*/,
    host: {},
    source: 'the simulated OpenAI Decisions host (electron/core/sandbox/native-decisions.ts), held to the family contract',
  },
  {
    providers: ['openai'],
    model: /.*/,
    host: { name: 'OpenAI', limits: { images: 128 } },
    source: `${OPENAI_TYPES}; 128 images: openrouter.ai/docs multimodal decisions (GPT-6 Luna Decisions) and promptfoo's openai:decisions check`,
  },
  {
    providers: ['fireworks'],
    model: /.*/,
    host: {
      name: 'Fireworks',
      images: 'none',
      limits: { maxOptions: 208 },
      rounding: null,
      gaps: 'Fireworks answers input_image parts with a 400 on this route',
    },
    source: 'docs.fireworks.ai/api-reference/post-decisions ("Text only", "208 options per choice question", "safety_identifier is accepted but ignored")',
  },
  {
    providers: ['vercel'],
    model: /.*/,
    host: { name: 'Vercel AI Gateway' },
    source: 'vercel.com/docs/ai-gateway/sdks-and-apis/openai-decisions ("the same request and response shapes as the OpenAI Decisions API")',
  },
  {
    providers: ['opper'],
    model: /.*/,
    host: { name: 'Opper', path: '/v3/compat/decisions' },
    source: 'docs.opper.ai/build/gateway/decision-models.md',
  },
];

export function openAiDecisionsHost(provider: { slug: string; name: string }, model: string): DecisionHost {
  return lookUpHost(OPENAI_DECISIONS_HOSTS, provider.slug, model, { ...OPENAI_DECISIONS_DEFAULTS, name: provider.name });
}
