import { createOpenAI } from '@ai-sdk/openai';
import {
  createGateway,
  GatewayAuthenticationError,
  GatewayInvalidRequestError,
  GatewayModelNotFoundError,
  GatewayRateLimitError,
  GatewayInternalServerError,
} from '@ai-sdk/gateway';
import { APICallError } from '@ai-sdk/provider';
import { experimental_decide, Experimental_DecisionRefusalError } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scriptRefusal, startClientServer, type ClientServer } from '../../test-support/client-server';

/**
 * The AI SDK (`ai` 7.0.173 `experimental_decide`) with two providers pointed at the server by
 * their base URL only: `@ai-sdk/openai` 4.0.118 (OpenAI's Decisions at /api/v1) and
 * `@ai-sdk/gateway` 4.0.146 (the gateway protocol at /api/ai). `experimental_decide` holds every
 * answer to its own checks (one per question, sums within the declared rounding, a maximal choice,
 * the score their weighted mean), so an answer that breaks them fails here as it would for a user.
 */
describe('ai 7.0.173 experimental_decide', () => {
  let env: ClientServer;
  beforeAll(async () => {
    env = await startClientServer();
  }, 30_000);
  afterAll(() => env.close());

  const questions = {
    late: { type: 'boolean' as const, instructions: 'Did the parcel come late?', criteria: { true: 'after the promised day', false: 'on time' } },
    mood: { type: 'choice' as const, instructions: 'What is the mood?', criteria: { happy: 'pleased', angry: null, calm: null } },
    stars: { type: 'score' as const, instructions: 'How pleased?', criteria: ['not at all', 'somewhat', 'very'] },
  };
  const state = 'The parcel came two days late and I am angry about it.';
  const openai = (apiKey = env.key) => createOpenAI({ apiKey, baseURL: `${env.url}/api/v1` });
  const gateway = (apiKey = env.key) => createGateway({ apiKey, baseURL: `${env.url}/api/ai` });

  for (const model of ['sandbox/decider', 'sandbox/baseline-text']) {
    for (const [via, provider] of [
      ['@ai-sdk/openai', () => openai().decisionModel(model)],
      ['@ai-sdk/gateway', () => gateway().decisionModel(model)],
    ] as const) {
      it(`${via} on ${model}: every question kind, each answer passing the SDK's own checks`, async () => {
        const result = await experimental_decide({ model: provider(), state, questions, maxRetries: 0 });
        expect(Object.keys(result.answers)).toEqual(['late', 'mood', 'stars']);
        expect(result.answers['late']).toMatchObject({ type: 'boolean' });
        expect(result.answers['mood']).toMatchObject({ type: 'choice' });
        expect(result.answers['stars']).toMatchObject({ type: 'score' });
        expect(result.usage.inputTokens).toBeGreaterThan(0);
      });
    }
  }

  it("the gateway protocol declares the rounding the answers were given to: a native host's two decimals, six for answers measured here", async () => {
    const native = await experimental_decide({ model: gateway().decisionModel('sandbox/decider'), state, questions, maxRetries: 0 });
    expect(native.rounding).toEqual({ probabilityDecimals: 2, scoreDecimals: 2 });
    const measured = await experimental_decide({ model: gateway().decisionModel('sandbox/baseline-text'), state, questions, maxRetries: 0 });
    expect(measured.rounding).toEqual({ probabilityDecimals: 6, scoreDecimals: 6 });
    // Confidence travels beside the answers, where the AI SDK's providers put it.
    expect((measured.providerMetadata?.['gateway'] as { confidence: Record<string, number> }).confidence['mood']).toBeGreaterThanOrEqual(0);
  });

  it("Vercel's decision fallbacks (providerOptions.gateway.models): an uncertain answer rerun on the conditional model, which the result names, with the attempts listed", async () => {
    const escalate = { model: 'sandbox/baseline-text', when: { any: [{ question: 'late' as const, probabilityBetween: [0, 1] as [number, number] }] } };
    const result = await experimental_decide({
      model: gateway().decisionModel('sandbox/decider'),
      state,
      questions,
      maxRetries: 0,
      providerOptions: { gateway: { models: [escalate] } },
    });
    expect(result.response.modelId).toBe('sandbox/baseline-text');
    const routing = (result.providerMetadata?.['gateway'] as { routing: { modelAttempts: { modelId: string; success: boolean; triggeredBy?: string[] }[] } })
      .routing;
    expect(routing.modelAttempts.map((a) => [a.modelId, a.success, a.triggeredBy ?? null])).toEqual([
      ['sandbox/decider', true, ['late']],
      ['sandbox/baseline-text', true, null],
    ]);
    // A condition that cannot hold keeps the first model's answers.
    const kept = await experimental_decide({
      model: gateway().decisionModel('sandbox/decider'),
      state,
      questions,
      maxRetries: 0,
      providerOptions: { gateway: { models: [{ model: 'sandbox/baseline-text', when: { question: 'mood', confidenceBelow: 0 } }] } },
    });
    expect(kept.response.modelId).toBe('sandbox/decider');
    // A named question that is not asked is refused, as the gateway does, naming it.
    await expect(
      experimental_decide({
        model: gateway().decisionModel('sandbox/decider'),
        state,
        questions,
        maxRetries: 0,
        providerOptions: { gateway: { models: [{ model: 'sandbox/baseline-text', when: { question: 'tone', confidenceBelow: 0.5 } }] } },
      }),
    ).rejects.toThrow(/providerOptions\.gateway\.models\[0\]\.when\.question: the request has no question "tone"/);
  });

  it("a refusal arrives as the SDK's DecisionRefusalError naming the question, through both providers", async () => {
    const two = { late: { type: 'boolean' as const, instructions: 'Late?' }, topic: { type: 'boolean' as const, instructions: 'About billing?' } };
    for (const provider of [() => openai().decisionModel('acme/luna'), () => gateway().decisionModel('acme/luna')]) {
      scriptRefusal(env.hosts, 'topic');
      const error = await experimental_decide({ model: provider(), state, questions: two, maxRetries: 0 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Experimental_DecisionRefusalError);
      expect((error as { questionIds: string[] }).questionIds).toEqual(['topic']);
    }
  });

  it("errors arrive as each provider's typed errors: 400, 402, 429 with Retry-After, 401, an unknown model", async () => {
    const one = { pick: { type: 'choice' as const, instructions: 'Pick', criteria: { only: null } } };
    const viaOpenAi = await experimental_decide({ model: openai().decisionModel('sandbox/decider'), state, questions: one, maxRetries: 0 }).catch(
      (e: unknown) => e,
    );
    expect(APICallError.isInstance(viaOpenAi)).toBe(true);
    expect((viaOpenAi as APICallError).statusCode).toBe(400);
    const viaGateway = await experimental_decide({
      model: gateway().decisionModel('sandbox/decider'),
      state,
      questions: { late: questions.late, pick: { type: 'choice' as const, instructions: 'Pick', criteria: { a: null, b: null } } },
      maxRetries: 0,
      headers: { 'x-session-id': 'x'.repeat(300) },
    }).catch((e: unknown) => e);
    expect(viaGateway).toBeInstanceOf(GatewayInvalidRequestError);
    expect((viaGateway as Error).message).toBe('x-session-id: at most 256 characters');

    const broke = await experimental_decide({ model: gateway(env.brokeKey).decisionModel('sandbox/decider'), state, questions, maxRetries: 0 }).catch(
      (e: unknown) => e,
    );
    expect(broke).toBeInstanceOf(GatewayInternalServerError);
    expect((broke as GatewayInternalServerError).statusCode).toBe(402);
    const brokeOpenAi = await experimental_decide({ model: openai(env.brokeKey).decisionModel('sandbox/decider'), state, questions, maxRetries: 0 }).catch(
      (e: unknown) => e,
    );
    expect((brokeOpenAi as APICallError).statusCode).toBe(402);

    await experimental_decide({ model: gateway(env.limitedKey).decisionModel('sandbox/decider'), state, questions, maxRetries: 0 });
    const limited = await experimental_decide({ model: gateway(env.limitedKey).decisionModel('sandbox/decider'), state, questions, maxRetries: 0 }).catch(
      (e: unknown) => e,
    );
    expect(limited).toBeInstanceOf(GatewayRateLimitError);
    expect((limited as GatewayRateLimitError).statusCode).toBe(429);
    const limitedOpenAi = await experimental_decide({ model: openai(env.limitedKey).decisionModel('sandbox/decider'), state, questions, maxRetries: 0 }).catch(
      (e: unknown) => e,
    );
    expect((limitedOpenAi as APICallError).statusCode).toBe(429);
    expect(Number((limitedOpenAi as APICallError).responseHeaders?.['retry-after'])).toBeGreaterThan(0);

    const anonymous = await experimental_decide({ model: gateway('vd-nope').decisionModel('sandbox/decider'), state, questions, maxRetries: 0 }).catch(
      (e: unknown) => e,
    );
    expect(anonymous).toBeInstanceOf(GatewayAuthenticationError);
    const unknown = await experimental_decide({ model: gateway().decisionModel('acme/none'), state, questions, maxRetries: 0 }).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(GatewayModelNotFoundError);
    expect((unknown as GatewayModelNotFoundError).modelId).toBe('acme/none');
  });
});
