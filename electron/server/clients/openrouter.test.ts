import { OpenRouter } from '@openrouter/sdk';
import * as sdkErrors from '@openrouter/sdk/models/errors';
import { createOpenRouter } from '@openrouter/ai-sdk-provider';
import { APICallError } from '@ai-sdk/provider';
import { experimental_decide } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scriptRefusal, startClientServer, type ClientServer } from '../../test-support/client-server';

/**
 * OpenRouter's clients pointed at the server by their base URL only: `@openrouter/sdk` 1.3.19
 * (`systemOne.create` at `{serverURL}/systemone`, `alpha.decisions.create` at
 * `/api/alpha/decisions`) and `@openrouter/ai-sdk-provider` 3.1.0 under `ai`'s
 * `experimental_decide` (which sends the state as a parts array). The SDK has no box question; the
 * provider none either.
 */
describe('OpenRouter clients against /api/v1/systemone and /api/alpha/decisions', () => {
  let env: ClientServer;
  beforeAll(async () => {
    env = await startClientServer();
  }, 30_000);
  afterAll(() => env.close());

  const sdk = (apiKey = env.key) => new OpenRouter({ apiKey, serverURL: `${env.url}/api/v1`, retryConfig: { strategy: 'none' } });
  const questions = {
    late: { type: 'noul' as const, instructions: 'Did the parcel come late?', criteria: { true: 'after the promised day', false: 'on time' } },
    mood: { type: 'choice' as const, instructions: 'What is the mood?', criteria: { happy: 'pleased', angry: null } },
    stars: { type: 'score' as const, instructions: 'How pleased?', criteria: ['not at all', 'somewhat', 'very'] },
  };
  const state = 'The parcel came two days late and I am angry about it.';

  for (const model of ['sandbox/decider', 'sandbox/baseline-text']) {
    it(`systemOne.create and alpha.decisions.create on ${model}: every question kind, parsed by the SDK, confidence on choice and score`, async () => {
      const viaSystemOne = await sdk().systemOne.create({ decisionsRequest: { model, state, questions } });
      const viaAlpha = await sdk().alpha.decisions.create({ decisionsRequest: { model, state, questions } }, { serverURL: env.url });
      for (const result of [viaSystemOne, viaAlpha]) {
        expect(Object.keys(result.answers)).toEqual(['late', 'mood', 'stars']);
        expect(result.answers['late']).toMatchObject({ type: 'noul' });
        expect(result.answers['mood']).toMatchObject({ type: 'choice', confidence: expect.any(Number), probabilities: expect.any(Object) });
        expect(result.answers['stars']).toMatchObject({ type: 'score', confidence: expect.any(Number), legend: expect.any(Object) });
        expect(result.usage.inputTokens).toBeGreaterThan(0);
      }
    });
  }

  it('a refused question is a 400 naming it on these routes, whose answers have no refusal', async () => {
    scriptRefusal(env.hosts, 'topic');
    const error = await sdk()
      .systemOne.create({
        decisionsRequest: { model: 'acme/luna', state, questions: { late: questions.late, topic: { type: 'noul', instructions: 'About billing?' } } },
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(sdkErrors.BadRequestResponseError);
    expect((error as Error).message).toMatch(/^questions\.topic: OpenAI declined to answer this question/);
  });

  it("errors arrive as the SDK's typed classes on both routes: 400, 404, 402, 429, 401", async () => {
    const bad = { model: 'sandbox/decider', state, questions, images: ['x'] } as never;
    const e400 = await sdk()
      .systemOne.create({ decisionsRequest: { model: 'sandbox/decider', state, questions, sessionId: 'x'.repeat(300) } })
      .catch((e: unknown) => e);
    expect(e400).toBeInstanceOf(sdkErrors.BadRequestResponseError);
    expect((e400 as Error).message).toContain('session_id is at most 256 characters');
    const e404 = await sdk()
      .systemOne.create({ decisionsRequest: { model: 'acme/none', state, questions } })
      .catch((e: unknown) => e);
    expect(e404).toBeInstanceOf(sdkErrors.NotFoundResponseError);
    const unknownField = await fetch(`${env.url}/api/v1/systemone`, {
      method: 'POST',
      headers: { authorization: `Bearer ${env.key}`, 'content-type': 'application/json' },
      body: JSON.stringify(bad),
    });
    expect(unknownField.status).toBe(400);
    expect(((await unknownField.json()) as { error: { message: string } }).error.message).toContain('images: unknown property "images" is not allowed here');
    const broke = await sdk(env.brokeKey)
      .systemOne.create({ decisionsRequest: { model: 'sandbox/decider', state, questions } })
      .catch((e: unknown) => e);
    expect(broke).toBeInstanceOf(sdkErrors.PaymentRequiredResponseError);
    await sdk(env.limitedKey).systemOne.create({ decisionsRequest: { model: 'sandbox/decider', state, questions } });
    const limited = await sdk(env.limitedKey)
      .alpha.decisions.create({ decisionsRequest: { model: 'sandbox/decider', state, questions } }, { serverURL: env.url })
      .catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(sdkErrors.TooManyRequestsResponseError);
    const anonymous = await sdk('vd-nope')
      .systemOne.create({ decisionsRequest: { model: 'sandbox/decider', state, questions } })
      .catch((e: unknown) => e);
    expect(anonymous).toBeInstanceOf(sdkErrors.UnauthorizedResponseError);
  });

  it("@openrouter/ai-sdk-provider under experimental_decide: a string state sent as parts is read as text; every kind passes the AI SDK's checks", async () => {
    // The provider was built against older @ai-sdk/provider types than `ai` 7 names; the runtime contract is `ai`'s.
    type Model = Parameters<typeof experimental_decide>[0]['model'];
    const model = (apiKey: string, id: string) => createOpenRouter({ apiKey, baseURL: `${env.url}/api/v1` }).evaluationModel(id) as unknown as Model;
    for (const id of ['sandbox/decider', 'sandbox/baseline-text']) {
      const result = await experimental_decide({
        model: model(env.key, id),
        state,
        questions: {
          late: { type: 'boolean', instructions: 'Did the parcel come late?' },
          mood: { type: 'choice', instructions: 'Mood?', criteria: { happy: null, angry: null } },
          stars: questions.stars,
        },
        maxRetries: 0,
      });
      expect(Object.keys(result.answers)).toEqual(['late', 'mood', 'stars']);
    }
    const late = { late: { type: 'boolean' as const, instructions: 'Late?' } };
    const error = await experimental_decide({ model: model(env.brokeKey, 'sandbox/decider'), state, questions: late, maxRetries: 0 }).catch((e: unknown) => e);
    expect(APICallError.isInstance(error)).toBe(true);
    expect((error as APICallError).statusCode).toBe(402);
    // The spec's route has no refusal answer: a refused question is a 400 that names it.
    scriptRefusal(env.hosts, 'topic');
    const refused = await experimental_decide({
      model: model(env.key, 'acme/luna'),
      state,
      questions: { ...late, topic: { type: 'boolean', instructions: 'About billing?' } },
      maxRetries: 0,
    }).catch((e: unknown) => e);
    expect((refused as APICallError).statusCode).toBe(400);
    expect((refused as APICallError).responseBody).toContain('questions.topic: OpenAI declined to answer this question');
    // A key of its own: the one above already spent its request of this minute.
    const once = (await env.server.core.apiKeys.create('once a minute', 'standard', { credit_limit: null, rate_limit_rpm: 1 })).key;
    await experimental_decide({ model: model(once, 'sandbox/decider'), state, questions: late, maxRetries: 0 });
    const limited = await experimental_decide({ model: model(once, 'sandbox/decider'), state, questions: late, maxRetries: 0 }).catch((e: unknown) => e);
    expect((limited as APICallError).statusCode).toBe(429);
    expect(Number((limited as APICallError).responseHeaders?.['retry-after'])).toBeGreaterThan(0);
  });
});
