import { createOpenAI } from '@ai-sdk/openai';
import { createGateway } from '@ai-sdk/gateway';
import { createTypeSafeAi } from '@ai-sdk/typesafe-ai';
import { createOpenRouter } from '@openrouter/ai-sdk-provider';
import { experimental_decide } from 'ai';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startClientServer, type ClientServer } from '../../test-support/client-server';

/**
 * For random question sets, every answer on every route passes the AI SDK's own validator
 * (`experimental_decide` checks each answer against its question and the rounding its provider
 * declares): OpenAI's shape through `@ai-sdk/openai`, the gateway protocol through
 * `@ai-sdk/gateway`, System One through `@ai-sdk/typesafe-ai` 3.0.0 (TypeSafe's provider, which
 * posts to `{baseURL}/systemone`), the spec's route through `@openrouter/ai-sdk-provider`; on a
 * native decision model and on a chat model answered by a method.
 */
describe("every answer on every route passes the AI SDK's own checks", () => {
  let env: ClientServer;
  beforeAll(async () => {
    env = await startClientServer();
  }, 30_000);
  afterAll(() => env.close());

  const word = fc.constantFrom('parcel', 'late', 'angry', 'refund', 'charge', 'happy', 'box', 'crushed', 'early', 'calm');
  const text = fc.array(word, { minLength: 1, maxLength: 6 }).map((w) => w.join(' '));
  const question = fc.oneof(
    text.map((instructions) => ({ type: 'boolean' as const, instructions })),
    fc
      .tuple(text, fc.uniqueArray(word, { minLength: 2, maxLength: 6 }))
      .map(([instructions, options]) => ({ type: 'choice' as const, instructions, criteria: Object.fromEntries(options.map((o) => [o, null])) })),
    fc.tuple(text, fc.array(text, { minLength: 2, maxLength: 7 })).map(([instructions, criteria]) => ({ type: 'score' as const, instructions, criteria })),
  );
  const questions = fc
    .uniqueArray(fc.tuple(fc.constantFrom('a', 'b', 'c', 'd', 'e'), question), { minLength: 1, maxLength: 4, selector: ([name]) => name })
    .map((entries) => Object.fromEntries(entries));

  type Model = Parameters<typeof experimental_decide>[0]['model'];
  // The two evaluation-model providers were built against older @ai-sdk/provider types; the runtime contract is `ai`'s.
  const providers: Record<string, (model: string) => Model> = {
    'OpenAI shape (@ai-sdk/openai)': (model: string) => createOpenAI({ apiKey: env.key, baseURL: `${env.url}/api/v1` }).decisionModel(model),
    'gateway protocol (@ai-sdk/gateway)': (model: string) => createGateway({ apiKey: env.key, baseURL: `${env.url}/api/ai` }).decisionModel(model),
    'System One (@ai-sdk/typesafe-ai)': (model: string) =>
      createTypeSafeAi({ apiKey: env.key, baseURL: `${env.url}/api/v1` }).evaluationModel(model) as unknown as Model,
    "the spec's route (@openrouter/ai-sdk-provider)": (model: string) =>
      createOpenRouter({ apiKey: env.key, baseURL: `${env.url}/api/v1` }).evaluationModel(model) as unknown as Model,
  };

  for (const [route, provider] of Object.entries(providers)) {
    for (const model of ['sandbox/decider', 'sandbox/baseline-text']) {
      it(`${route}, ${model}`, async () => {
        await fc.assert(
          fc.asyncProperty(questions, fc.array(word, { minLength: 1, maxLength: 12 }), async (asked, state) => {
            const result = await experimental_decide({ model: provider(model), state: state.join(' '), questions: asked, maxRetries: 0 });
            expect(Object.keys(result.answers).sort()).toEqual(Object.keys(asked).sort());
          }),
          { numRuns: 12 },
        );
      });
    }
  }
});
