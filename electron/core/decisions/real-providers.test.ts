import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DecisionsRequest } from '../../../shared/schemas/decisions-request';
import { pngWithRect } from '../../test-support/images';
import {
  ALWAYS_FORBIDDEN,
  FIRST_LABEL_LOGPROB,
  FIRST_LABEL_STATED,
  LOGPROBS_FORBIDDEN,
  RULES,
  StrictProviders,
  UNKNOWN_REASONING,
  type Rule,
} from '../../test-support/strict-providers';
import { createCore } from '../create-core';
import { tempCore, type TempCore } from '../../test-support/temp-core';

const NAMES: Record<string, string> = {
  openai: 'OpenAI',
  anthropic: 'Anthropic',
  'google-ai-studio': 'Google AI Studio',
  mistral: 'Mistral',
  together: 'Together',
  groq: 'Groq',
  fireworks: 'Fireworks',
  deepinfra: 'DeepInfra',
};
const WIRE: Record<string, 'openai' | 'anthropic' | 'gemini'> = { anthropic: 'anthropic', 'google-ai-studio': 'gemini' };

/**
 * What each model's documentation says it does, written here independently of the capability
 * tables: label log-probabilities where the model returns them, stated probabilities elsewhere.
 */
const EXPECTED_METHOD: Record<string, 'logprobs' | 'verbalized'> = {
  'gpt-5-mini': 'verbalized',
  'o4-mini': 'verbalized',
  'gpt-4.1-mini': 'logprobs',
  'claude-opus-4-7': 'verbalized',
  'claude-sonnet-4-5': 'verbalized',
  'gemini-2.5-flash': 'verbalized',
  'gemini-2.5-pro': 'verbalized',
  'gemini-2.0-flash': 'logprobs',
  'mistral-small-latest': 'verbalized',
  'meta-llama/Llama-3.3-70B-Instruct-Turbo': 'logprobs',
  'llama-3.3-70b-versatile': 'verbalized',
  'accounts/fireworks/models/llama-v3p1-8b-instruct': 'logprobs',
  'meta-llama/Meta-Llama-3.1-8B-Instruct': 'logprobs',
};

/** Every model the test catalog lists: the representative ones and two the tables get wrong. */
const CATALOGUED: Rule[] = [...RULES, UNKNOWN_REASONING, LOGPROBS_FORBIDDEN];
const FALLBACK_MODEL = 'refused-then-elsewhere';
const DEEPINFRA = RULES.find((r) => r.provider === 'deepinfra')!;

const modelId = (provider: string, model: string) => `${provider}/${model.toLowerCase().replace(/[^a-z0-9.-]+/g, '-')}`;

/** One image with a dark rectangle at top 0.1, left 0.2, bottom 0.5, right 0.8 of a 200 × 100 image. */
const IMAGE = pngWithRect(200, 100, { x: 40, y: 10, w: 120, h: 40 });
const QUESTIONS: DecisionsRequest['questions'] = {
  late: { type: 'noul', instructions: 'Did the parcel arrive late?' },
  mood: { type: 'choice', instructions: 'How does the customer sound?', criteria: { angry: null, calm: 'no strong feeling', pleased: null } },
  severity: { type: 'score', instructions: 'How severe is the complaint?', criteria: ['none', 'mild', 'serious', 'urgent'] },
  where: { type: 'box', instructions: 'the dark rectangle' },
};
const STATE: DecisionsRequest['state'] = [
  { type: 'text', text: 'The parcel came two days late and the box was dented.' },
  { type: 'image_url', image_url: { url: IMAGE } },
];

/** The answers a model with that belief gives, by method (see strict-providers.ts). */
function expectedAnswers(method: 'logprobs' | 'verbalized') {
  const first = method === 'logprobs' ? FIRST_LABEL_LOGPROB : FIRST_LABEL_STATED;
  const rest3 = (1 - first) / 2;
  const rest4 = (1 - first) / 3;
  return {
    noul: first,
    // Confidence: how concentrated (first, rest, rest) is, 1 − H / ln 3.
    choice: {
      choice: 'angry',
      confidence: 1 + (first * Math.log(first) + 2 * rest3 * Math.log(rest3)) / Math.log(3),
      probabilities: { angry: first, calm: rest3, pleased: rest3 },
    },
    // Level 0 has `first`, the three others share the rest: expected level = (1 + 2 + 3) × rest.
    score: 6 * rest4,
  };
}

describe('every question kind answers on every bundled provider, as its current models document', () => {
  let strict: StrictProviders;
  let env: TempCore;
  beforeAll(async () => {
    strict = await new StrictProviders().start();
    env = await tempCore();
    await env.core.settings.update({ sandbox: 'off' });
    const providers = [...new Set(RULES.map((r) => r.provider))];
    await env.core.handlers['catalog.import']({
      catalog: {
        version: 1,
        providers: providers.map((slug) => ({ slug, name: NAMES[slug]!, wire_format: WIRE[slug] ?? 'openai', base_url: strict.baseUrl(slug) })),
        models: [...CATALOGUED, { provider: 'openai', model: FALLBACK_MODEL }].map((r) => ({
          id: modelId(r.provider, r.model),
          name: r.model,
          created: 1,
          architecture: {
            input_modalities: ['text', 'image'],
            output_modalities: ['text'],
            modality: 'text+image->text',
            instruct_type: null,
            tokenizer: null,
          },
          locates_objects: true,
        })),
        endpoints: [
          ...CATALOGUED.map((r) => ({
            model_id: modelId(r.provider, r.model),
            provider: r.provider,
            upstream_model: r.model,
            pricing: { prompt: '0.000001', completion: '0.000004' },
            // This catalog says the endpoint takes log-probabilities; its host says otherwise, with a 403.
            ...(r === LOGPROBS_FORBIDDEN
              ? { supported_parameters: ['logprobs', 'top_logprobs', 'max_completion_tokens', 'temperature', 'response_format'] }
              : {}),
          })),
          // One model on two hosts: the first refuses whatever it is sent, the second answers.
          ...[ALWAYS_FORBIDDEN, DEEPINFRA].map((r) => ({ model_id: modelId('openai', FALLBACK_MODEL), provider: r.provider, upstream_model: r.model })),
        ],
      },
    });
    for (const slug of providers) await env.core.handlers['providerKeys.set']({ provider: slug, key: `sk-${slug}-test-key` });
  });
  afterAll(async () => {
    await env.cleanup();
    await strict.close();
  });

  it.each(RULES.map((r) => [r.provider, r.model] as const))('%s %s', async (provider, model) => {
    const before = strict.received.length;
    const outcome = await env.core.decisions.decide(
      { model: modelId(provider, model), state: STATE, questions: QUESTIONS },
      { requestId: `${provider}-${model}` },
    );
    const method = EXPECTED_METHOD[model]!;
    // Built right for the model: the provider refused nothing.
    const sent = strict.received.slice(before);
    expect(sent.filter((r) => r.status !== 200).map((r) => `${r.status} ${JSON.stringify(r.body).slice(0, 80)}`)).toEqual([]);
    expect(outcome.methods).toEqual({ late: method, mood: method, severity: method, where: 'box' });
    const want = expectedAnswers(method);
    const answers = outcome.response.answers;
    expect(answers['late']!.type).toBe('noul');
    expect((answers['late'] as { noul: number }).noul).toBeCloseTo(want.noul, 3);
    expect(answers['mood']).toMatchObject({ type: 'choice', choice: want.choice.choice });
    const mood = answers['mood'] as { confidence: number; probabilities: Record<string, number> };
    expect(mood.confidence).toBeCloseTo(want.choice.confidence, 2);
    for (const [k, v] of Object.entries(want.choice.probabilities)) expect(mood.probabilities[k]).toBeCloseTo(v, 2);
    expect((answers['severity'] as { score: number }).score).toBeCloseTo(want.score, 2);
    const box = (answers['where'] as { box: Record<string, number> }).box;
    for (const [k, v] of Object.entries({ top: 0.1, left: 0.2, bottom: 0.5, right: 0.8 })) expect(box[k]).toBeCloseTo(v, 2);
    expect(outcome.response.provider).toBe(NAMES[provider]);
    expect(outcome.response.usage.input_tokens).toBeGreaterThan(0);
  });

  it('the requests carried only what each model takes', () => {
    const to = (model: string) => strict.received.filter((r) => r.model === model && r.status === 200).map((r) => r.body);
    for (const body of to('gpt-5-mini')) {
      expect(body).not.toHaveProperty('max_tokens');
      expect(body).not.toHaveProperty('temperature');
      expect(body).toMatchObject({ reasoning_effort: 'minimal' });
      expect(body['max_completion_tokens']).toBeGreaterThan(8);
    }
    for (const body of to('claude-opus-4-7')) expect(body).not.toHaveProperty('temperature');
    for (const body of to('claude-sonnet-4-5')) expect(body).toMatchObject({ temperature: 0 });
    for (const body of to('mistral-small-latest')) expect(body).not.toHaveProperty('stream_options');
    for (const body of to('gemini-2.5-flash')) expect(body).toMatchObject({ generationConfig: { thinkingConfig: { thinkingBudget: 0 } } });
    for (const body of to('gemini-2.5-pro')) expect((body['generationConfig'] as { maxOutputTokens: number }).maxOutputTokens).toBeGreaterThan(128);
    // Stated probabilities go through each provider's structured output.
    expect(to('claude-sonnet-4-5').some((b) => b['output_format'] !== undefined)).toBe(true);
    expect(to('gemini-2.5-flash').some((b) => (b['generationConfig'] as { responseSchema?: unknown }).responseSchema !== undefined)).toBe(true);
  });

  it('a model the tables do not know: what it refuses is learned, the call made again without it, and remembered', async () => {
    const id = modelId('openai', UNKNOWN_REASONING.model);
    const ask = (n: number) =>
      env.core.decisions.decide(
        { model: id, state: 'The parcel came late.', questions: { late: { type: 'noul', instructions: 'Late?' } } },
        { requestId: `unknown-${n}` },
      );
    const before = strict.received.length;
    const first = await ask(1);
    const sent = strict.received.slice(before);
    // The first request found out, one refusal at a time (none of them billed), and still answered.
    expect(sent.filter((r) => r.status === 400).length).toBeGreaterThanOrEqual(2);
    expect(first.methods['late']).toBe('verbalized');
    expect((first.response.answers['late'] as { noul: number }).noul).toBeCloseTo(FIRST_LABEL_STATED, 3);
    const [detail] = await env.core.handlers['endpoints.details']({ model: id });
    expect(detail!.refused.map((r) => r.parameter).sort()).toEqual(expect.arrayContaining(['logprobs', 'temperature']));
    expect(detail!.capabilities).toMatchObject({ method: 'verbalized', temperature: false, top_logprobs: 0 });
    // The next one asks nothing the model refuses.
    const again = strict.received.length;
    await ask(2);
    expect(strict.received.slice(again).map((r) => r.status)).toEqual([200]);
    // Remembered in the store: a new process reads it back.
    const reopened = await createCore({ ...env.core.options, discovery: false });
    try {
      const [kept] = await reopened.handlers['endpoints.details']({ model: id });
      expect(kept!.refused.map((r) => r.parameter).sort()).toEqual(detail!.refused.map((r) => r.parameter).sort());
    } finally {
      await reopened.close();
    }
  });

  it("a 403 that names a parameter (OpenAI's for log-probabilities) is learned on the first request and not asked again", async () => {
    const id = modelId('openai', LOGPROBS_FORBIDDEN.model);
    const ask = (n: number) =>
      env.core.decisions.decide(
        { model: id, state: 'The parcel came late.', questions: { late: { type: 'noul', instructions: 'Late?' } } },
        { requestId: `forbidden-${n}` },
      );
    const [before] = await env.core.handlers['endpoints.details']({ model: id });
    expect(before!.capabilities.top_logprobs).toBeGreaterThan(0);

    const start = strict.received.length;
    const first = await ask(1);
    const sent = strict.received.slice(start);
    // Refused once (with the 403, not billed), asked again without log-probabilities, and answered.
    expect(sent.map((r) => r.status)).toEqual([403, 200]);
    expect(sent[0]!.body['logprobs']).toBe(true);
    expect(sent[1]!.body).not.toHaveProperty('logprobs');
    expect(sent[1]!.body).not.toHaveProperty('top_logprobs');
    expect(first.methods['late']).toBe('verbalized');
    expect((first.response.answers['late'] as { noul: number }).noul).toBeCloseTo(FIRST_LABEL_STATED, 3);
    const [detail] = await env.core.handlers['endpoints.details']({ model: id });
    expect(detail!.refused).toEqual([
      expect.objectContaining({ parameter: 'logprobs', message: 'HTTP 403: You are not allowed to request logprobs from this model' }),
    ]);
    expect(detail!.capabilities).toMatchObject({ method: 'verbalized', top_logprobs: 0 });

    // The second request asks nothing the endpoint refused: one call, answered.
    const again = strict.received.length;
    const second = await ask(2);
    expect(strict.received.slice(again).map((r) => [r.status, r.body['logprobs']])).toEqual([[200, undefined]]);
    expect(second.methods['late']).toBe('verbalized');
  });

  it('a 403 that names a parameter already left out falls back to the next endpoint', async () => {
    const start = strict.received.length;
    const outcome = await env.core.decisions.decide(
      {
        model: modelId('openai', FALLBACK_MODEL),
        state: 'The parcel came late.',
        questions: { late: { type: 'noul', instructions: 'Late?' } },
        provider: { order: ['openai', 'deepinfra'] },
      },
      { requestId: 'fallback-403' },
    );
    // The table already leaves log-probabilities out for a gpt-5 model, so the 403 names nothing left to drop: the next endpoint answers.
    expect(strict.received.slice(start).map((r) => [r.model, r.status])).toEqual([
      [ALWAYS_FORBIDDEN.model, 403],
      [DEEPINFRA.model, 200],
    ]);
    expect(outcome.response.provider).toBe('DeepInfra');
    // Taken as the endpoint's refusal, not as a problem of the key.
    const details = await env.core.handlers['endpoints.details']({ model: modelId('openai', FALLBACK_MODEL) });
    expect(details.map((d) => [d.provider_slug, d.refused.map((r) => r.parameter)])).toEqual(
      expect.arrayContaining([
        ['openai', ['logprobs']],
        ['deepinfra', []],
      ]),
    );
  });
});
