import { randomBytes } from 'node:crypto';
import OpenAI from 'openai';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scriptRefusal, startClientServer, type ClientServer } from '../../test-support/client-server';
import { promptfooAccepts } from '../../test-support/promptfoo-checks';

/**
 * The OpenAI SDK (`openai` 7.55.0, `client.decisions.create`) pointed at the server by its base URL
 * only: every question kind of OpenAI's shape, on a native decision model and on a chat model asked
 * by a method, a refusal, and the errors as the SDK's own classes. The SDK checks nothing itself,
 * so every answer is also held to the checks promptfoo's `openai:decisions` provider publishes.
 */
describe('openai 7.55.0 against POST /api/v1/decisions', () => {
  let env: ClientServer;
  beforeAll(async () => {
    env = await startClientServer();
  }, 30_000);
  afterAll(() => env.close());

  const client = (apiKey = env.key) => new OpenAI({ apiKey, baseURL: `${env.url}/api/v1`, maxRetries: 0 });
  const questions = [
    { type: 'predicate' as const, name: 'late', instructions: 'Did the parcel come late?' },
    {
      type: 'choice' as const,
      name: 'mood',
      instructions: 'What is the mood?',
      choices: [{ value: 'happy', description: 'pleased' }, { value: 'angry' }, { value: true, description: 'a typed boolean value' }],
    },
    {
      type: 'score' as const,
      name: 'stars',
      instructions: 'How pleased?',
      levels: [{ label: 'not at all' }, { label: 'somewhat', description: 'mixed' }, { label: 'very' }],
    },
    { type: 'predicate' as const, instructions: 'Is it about a parcel?' },
  ];

  for (const model of ['sandbox/decider', 'sandbox/baseline-text']) {
    it(`${model}: answers in question order with names, typed values, confidence and usage, as promptfoo checks them`, async () => {
      const request = { model, input: 'The parcel came two days late and I am angry about it.', questions };
      const decision = await client().decisions.create(request);
      expect(decision.model).toBe(model);
      expect(decision.answers.map((a) => [a.type, a.name])).toEqual([
        ['predicate', 'late'],
        ['choice', 'mood'],
        ['score', 'stars'],
        ['predicate', null],
      ]);
      const mood = decision.answers[1] as OpenAI.Decision.AnswerResourceChoice;
      expect(mood.probabilities.map((p) => p.value)).toEqual(['happy', 'angry', true]);
      const stars = decision.answers[2] as OpenAI.Decision.AnswerResourceScore;
      expect(stars.probabilities.map((p) => [p.value, p.label])).toEqual([
        [0, 'not at all'],
        [1, 'somewhat'],
        [2, 'very'],
      ]);
      expect(promptfooAccepts(request, decision)).toBe(true);
    });
  }

  it('input as messages with images, JSON and a tool call is taken', async () => {
    const png = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
    const decision = await client().decisions.create({
      model: 'sandbox/decider',
      input: [
        { role: 'developer', content: 'Judge the last user message.' },
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'My order is late.' },
            { type: 'input_json', data: { order: 42 } },
            { type: 'input_image', image_url: png },
          ],
        },
        { type: 'function_call', call_id: 'c1', name: 'lookup', arguments: '{"order":42}' },
        { type: 'function_call_output', call_id: 'c1', output: 'shipped three days ago' },
      ],
      questions: [questions[0]!],
      safety_identifier: 'user-123',
      prompt_cache_key: 'parcels',
    });
    expect(decision.answers[0]).toMatchObject({ type: 'predicate', name: 'late' });
  });

  it('a body of hundreds of kilobytes, an image sent as a data URL, is read and answered', async () => {
    // Random pixels do not compress: about 210 KB of base64, read from the body's bytes (server/json-bytes.ts).
    const png = new PNG({ width: 200, height: 200 });
    randomBytes(png.data.length).copy(png.data);
    const image = `data:image/png;base64,${PNG.sync.write(png).toString('base64')}`;
    expect(image.length).toBeGreaterThan(150_000);
    const decision = await client().decisions.create({
      model: 'sandbox/decider',
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'Is this parcel damaged?' },
            { type: 'input_image', image_url: image },
          ],
        },
      ],
      questions: [questions[0]!],
    });
    expect(decision.answers[0]).toMatchObject({ type: 'predicate', name: 'late' });
    // The same body cut short is named as malformed JSON, in OpenAI's error object.
    const broken = await fetch(`${env.url}/api/v1/decisions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${env.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'sandbox/decider', input: [{ role: 'user', content: [{ type: 'input_image', image_url: image }] }] }).slice(0, -2),
    });
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as { error: { message: string } }).error.message).toMatch(/^Malformed JSON in the request body at line 1, column \d+/);
  });

  it('a refused question is a refusal in place; the others are answered and the whole call is billed', async () => {
    scriptRefusal(env.hosts, 'topic');
    const decision = await client().decisions.create({
      model: 'acme/luna',
      input: 'x',
      questions: [
        { type: 'predicate', name: 'late', instructions: 'Late?' },
        { type: 'predicate', name: 'topic', instructions: 'About billing?' },
      ],
    });
    expect(decision.answers).toEqual([
      { type: 'predicate', name: 'late', probability: 0.5 },
      { type: 'refusal', name: 'topic' },
    ]);
    expect(decision.usage).toMatchObject({ input_tokens: 100, output_tokens: 2, total_tokens: 102 });
  });

  it("errors arrive as the SDK's classes, with OpenAI's error object: 400 names the parameter, 402, 429 with Retry-After, 401", async () => {
    const one = {
      model: 'sandbox/decider',
      input: 'x',
      questions: [{ type: 'choice' as const, name: 'c', instructions: 'Pick', choices: [{ value: 'only' }] }],
    };
    const bad = await client()
      .decisions.create(one)
      .catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(OpenAI.BadRequestError);
    expect((bad as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('questions[0].choices');
    expect((bad as Error).message).toContain('a choice question needs between 2 and 255 choices');
    const box = await client()
      .decisions.create({ ...one, questions: [{ type: 'box', name: 'b', instructions: 'the mug' }] } as never)
      .catch((e: unknown) => e);
    expect(box).toBeInstanceOf(OpenAI.BadRequestError);
    expect((box as Error).message).toContain('box questions are answered at POST /api/v1/systemone and POST /api/alpha/decisions');
    const broke = await client(env.brokeKey)
      .decisions.create({ ...one, questions: [questions[0]!] })
      .catch((e: unknown) => e);
    expect(broke).toBeInstanceOf(OpenAI.APIError);
    expect((broke as InstanceType<typeof OpenAI.APIError>).status).toBe(402);
    expect((broke as InstanceType<typeof OpenAI.APIError>).type).toBe('insufficient_quota');
    await client(env.limitedKey).decisions.create({ ...one, questions: [questions[0]!] });
    const limited = await client(env.limitedKey)
      .decisions.create({ ...one, questions: [questions[0]!] })
      .catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(OpenAI.RateLimitError);
    expect(Number((limited as InstanceType<typeof OpenAI.RateLimitError>).headers?.get('retry-after'))).toBeGreaterThan(0);
    const anonymous = await client('vd-nope')
      .decisions.create({ ...one, questions: [questions[0]!] })
      .catch((e: unknown) => e);
    expect(anonymous).toBeInstanceOf(OpenAI.AuthenticationError);
  });
});
