import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CatalogFileInput } from '../../../shared/schemas/catalog';
import { CatalogFileSchema } from '../../../shared/schemas/catalog';
import { GatewayError } from '../errors';
import { ScriptedUpstream, sse, type Script } from '../../test-support/scripted-upstream';
import { usageOf } from './usage';
import { tempCore, type TempCore } from '../../test-support/temp-core';
import { WIRE } from '../../test-support/wire-fixtures';

const MODEL = 'acme/judge';

function catalog(openaiUrl: string, anthropicUrl: string, nativeUrl: string): CatalogFileInput {
  const model = {
    id: MODEL,
    name: 'Judge',
    created: 1,
    architecture: { input_modalities: ['text'], output_modalities: ['text'], modality: 'text->text', instruct_type: null, tokenizer: null },
  };
  return {
    version: 1,
    providers: [
      { slug: 'lp', name: 'LogProbs Co', wire_format: 'openai', base_url: `${openaiUrl}/v1` },
      { slug: 'talk', name: 'Talk Co', wire_format: 'anthropic', base_url: `${anthropicUrl}/v1` },
      { slug: 'native', name: 'Native Co', wire_format: 'decisions', base_url: `${nativeUrl}/api/v1` },
    ],
    models: [model],
    endpoints: [
      {
        model_id: MODEL,
        provider: 'lp',
        upstream_model: 'judge-1',
        pricing: { prompt: '0.000001', completion: '0.000002', input_cache_read: '0.00000025' },
        supported_parameters: ['logprobs', 'top_logprobs', 'max_tokens'],
      },
      { model_id: MODEL, provider: 'talk', upstream_model: 'judge-2', pricing: { prompt: '0.000003', completion: '0.000015' } },
      { model_id: MODEL, provider: 'native', upstream_model: 'judge-3' },
    ],
  };
}

describe('Decisions engine against providers on loopback', () => {
  let lp: ScriptedUpstream;
  let talk: ScriptedUpstream;
  let native: ScriptedUpstream;
  let env: TempCore;

  beforeAll(async () => {
    [lp, talk, native] = await Promise.all([new ScriptedUpstream().start(), new ScriptedUpstream().start(), new ScriptedUpstream().start()]);
  });
  afterAll(async () => {
    await Promise.all([lp.close(), talk.close(), native.close()]);
  });
  beforeEach(async () => {
    env = await tempCore();
    await env.core.settings.update({ sandbox: 'off' });
    await env.core.replaceCatalogFile(CatalogFileSchema.parse(catalog(lp.url, talk.url, native.url)));
    await env.core.providerKeys.set('lp', 'sk-lp-000000');
    await env.core.providerKeys.set('talk', 'sk-talk-00000');
    await env.core.providerKeys.set('native', 'sk-native-000');
    lp.received.length = 0;
    talk.received.length = 0;
  });
  afterEach(() => env.cleanup());

  const decide = (body: Record<string, unknown>) =>
    env.core.decisions.decide({ model: MODEL, state: 'The parcel came two days late.', ...body } as never, { requestId: 'r' });

  it('answers from label log-probabilities; every call shares the state prefix; usage sums all calls', async () => {
    lp.script(
      WIRE.openai('Yes', {
        top: [
          { token: 'Yes', logprob: Math.log(0.8) },
          { token: 'No', logprob: Math.log(0.2) },
        ],
        usage: { prompt: 2000, completion: 1 },
      }),
      WIRE.openai('B', {
        top: [
          { token: 'B', logprob: Math.log(0.6) },
          { token: 'A', logprob: Math.log(0.3) },
          { token: 'C', logprob: Math.log(0.1) },
        ],
        usage: { prompt: 2010, completion: 1, cached: 1920 },
      }),
    );
    const outcome = await decide({
      provider: { order: ['lp'] },
      questions: {
        late: { type: 'noul', instructions: 'Was it late?' },
        mood: { type: 'choice', instructions: 'Mood?', criteria: { calm: null, angry: null, happy: null } },
      },
    });
    expect(outcome.response.answers).toEqual({
      late: { type: 'noul', noul: 0.8 },
      // confidence 1 − H/ln 3 of (0.3, 0.6, 0.1): H = 0.897946, 1 − 0.897946 / 1.098612 = 0.182655.
      mood: { type: 'choice', choice: 'angry', confidence: 0.182655, probabilities: { calm: 0.3, angry: 0.6, happy: 0.1 } },
    });
    expect(outcome.methods).toEqual({ late: 'logprobs', mood: 'logprobs' });
    expect(outcome.response.provider).toBe('LogProbs Co');
    expect(outcome.response.usage.input_tokens).toBe(4010);
    expect(outcome.response.usage.output_tokens).toBe(2);
    // (2000 + 90 uncached) * 1e-6 + 1920 * 2.5e-7 + 2 * 2e-6
    expect(outcome.response.usage.cost).toBeCloseTo(0.00209 + 0.00048 + 0.000004, 12);
    const contents = lp.received.map((r) => (r.body as { messages: { content: string }[] }).messages[1]!.content);
    expect(contents[0]!.startsWith('The parcel came two days late.')).toBe(true);
    expect(contents[1]!.startsWith('The parcel came two days late.')).toBe(true);
    expect(contents[0]!.indexOf('Question:')).toBe(contents[1]!.indexOf('Question:'));
    for (const r of lp.received) expect(JSON.stringify(r.body)).not.toContain('session');
  });

  it('the other questions start once the first one has its first token, not after it ends', async () => {
    const slowTail = {
      ...WIRE.openai('Yes', {
        top: [
          { token: 'Yes', logprob: Math.log(0.8) },
          { token: 'No', logprob: Math.log(0.2) },
        ],
      }),
      chunkDelayMs: 150,
    };
    lp.script(
      slowTail,
      WIRE.openai('No', {
        top: [
          { token: 'No', logprob: Math.log(0.7) },
          { token: 'Yes', logprob: Math.log(0.3) },
        ],
      }),
    );
    const started = Date.now();
    const outcome = await decide({
      provider: { order: ['lp'] },
      questions: { late: { type: 'noul', instructions: 'Was it late?' }, damaged: { type: 'noul', instructions: 'Was it damaged?' } },
    });
    const finished = Date.now();
    expect(outcome.response.answers).toEqual({ late: { type: 'noul', noul: 0.8 }, damaged: { type: 'noul', noul: 0.3 } });
    const [first, second] = lp.received.slice(-2);
    // The first answer's stream takes about 600 ms (four chunks, 150 ms apart); its first token comes after about 150 ms.
    expect(second!.at - first!.at).toBeLessThan(450);
    expect(finished - started).toBeLessThan(1_000);
  });

  it('low coverage is measured again once, then the stated probabilities are used', async () => {
    const lowCoverage = WIRE.openai('The', {
      top: [
        { token: 'The', logprob: Math.log(0.8) },
        { token: 'Yes', logprob: Math.log(0.1) },
        { token: 'No', logprob: Math.log(0.1) },
      ],
      usage: { prompt: 100, completion: 1 },
    });
    lp.script(lowCoverage, lowCoverage, WIRE.openai('{"probabilities": {"Yes": 0.7, "No": 0.3}}', { usage: { prompt: 130, completion: 14 } }));
    const outcome = await decide({ provider: { order: ['lp'] }, questions: { late: { type: 'noul', instructions: 'Was it late?' } } });
    expect(outcome.response.answers['late']).toEqual({ type: 'noul', noul: 0.7 });
    expect(outcome.methods['late']).toBe('verbalized');
    expect(lp.received).toHaveLength(3);
    expect(outcome.response.usage).toMatchObject({ input_tokens: 330, output_tokens: 16 });
    expect((lp.received[2]!.body as { response_format: { type: string } }).response_format.type).toBe('json_schema');
  });

  it('providers without log-probabilities state probabilities (Anthropic wire format)', async () => {
    talk.script(WIRE.anthropic('{"probabilities": {"A": 1, "B": 3}}', { input: 50, cacheRead: 0, cacheWrite: 0, output: 12 }));
    const outcome = await decide({
      provider: { order: ['talk'], allow_fallbacks: false },
      questions: { pick: { type: 'choice', instructions: 'Pick', criteria: { x: null, y: null } } },
    });
    expect(outcome.response.answers['pick']).toEqual({ type: 'choice', choice: 'y', confidence: 0.188722, probabilities: { x: 0.25, y: 0.75 } });
    expect(outcome.methods['pick']).toBe('verbalized');
    expect(outcome.response.usage.cost).toBeCloseTo(50 * 3e-6 + 12 * 15e-6, 12);
  });

  it('a native Decisions provider is passed through, not recomputed', async () => {
    native.script({
      kind: 'respond',
      status: 200,
      chunks: [JSON.stringify({ model: 'judge-3', answers: { late: { type: 'noul', noul: 0.4242 } }, usage: { input_tokens: 7, output_tokens: 1 } })],
    });
    const outcome = await decide({ provider: { order: ['native'] }, questions: { late: { type: 'noul', instructions: 'Was it late?' } } });
    expect(outcome.response.answers['late']).toEqual({ type: 'noul', noul: 0.4242 });
    expect(outcome.methods['late']).toBe('native');
    // No prices are known for this endpoint and it gave no cost: cost is absent, not 0.
    expect(outcome.response.usage).toEqual({ input_tokens: 7, output_tokens: 1 });
  });

  it('falls back to the next provider when the first fails', async () => {
    lp.script({ kind: 'respond', status: 503, chunks: ['{"error":{"message":"busy"}}'] });
    talk.script(WIRE.anthropic('{"probabilities": {"Yes": 0.9, "No": 0.1}}'));
    const outcome = await decide({ provider: { order: ['lp', 'talk'] }, questions: { late: { type: 'noul', instructions: 'Was it late?' } } });
    expect(outcome.response.provider).toBe('Talk Co');
    expect(outcome.attempts.map((a) => a.outcome)).toEqual(['overloaded', 'ok']);
  });

  it('usage a provider did not report is counted with a tokenizer, never 0', async () => {
    const chunks = [
      `data: ${JSON.stringify({
        id: 'x',
        choices: [
          {
            index: 0,
            delta: { content: 'Yes' },
            logprobs: {
              content: [
                {
                  token: 'Yes',
                  logprob: Math.log(0.9),
                  top_logprobs: [
                    { token: 'Yes', logprob: Math.log(0.9) },
                    { token: 'No', logprob: Math.log(0.1) },
                  ],
                },
              ],
            },
          },
        ],
      })}\n\n`,
      'data: [DONE]\n\n',
    ];
    lp.script({ kind: 'respond', status: 200, headers: { 'content-type': 'text/event-stream' }, chunks });
    const outcome = await decide({ provider: { order: ['lp'] }, questions: { late: { type: 'noul', instructions: 'Was it late?' } } });
    expect(outcome.ledger[0]!.estimated).toBe(true);
    const { Tiktoken } = await import('js-tiktoken/lite');
    const ranks = (await import('js-tiktoken/ranks/o200k_base')).default;
    expect(outcome.response.usage.output_tokens).toBe(new Tiktoken(ranks).encode('Yes').length);
    expect(outcome.response.usage.input_tokens).toBeGreaterThan(20);
    expect(outcome.response.usage.cost).toBeGreaterThan(0);
  });

  it('refuses what it cannot answer honestly, naming the question', async () => {
    const box = (await decide({ questions: { where: { type: 'box', instructions: 'the cat' } } }).catch((e: unknown) => e)) as GatewayError;
    expect(box.status).toBe(400);
    expect(box.message).toMatch(/questions\.where: acme\/judge cannot locate objects/);
    const url = (await env.core.decisions
      .decide(
        {
          model: MODEL,
          state: [{ type: 'image_url', image_url: { url: 'http://169.254.169.254/latest' } }],
          questions: { q: { type: 'noul', instructions: 'x' } },
        },
        { requestId: 'r' },
      )
      .catch((e: unknown) => e)) as GatewayError;
    expect(url.status).toBe(400);
    expect(url.message).toMatch(/state\[0\]\.image_url\.url: only data: URLs are accepted .*does not fetch URLs/);
  });

  it('throughput is measured from Decisions traffic', async () => {
    // A stated-probability reply of 12 output tokens, streamed in pieces 30 ms apart.
    const reply = WIRE.anthropic('{"probabilities": {"Yes": 0.9, "No": 0.1}}', { input: 50, cacheRead: 0, cacheWrite: 0, output: 12 }) as Extract<
      Script,
      { kind: 'respond' }
    >;
    talk.script({ ...reply, chunkDelayMs: 30 });
    await decide({ provider: { order: ['talk'], allow_fallbacks: false }, questions: { late: { type: 'noul', instructions: 'Late?' } } });
    const endpoint = env.core.catalog.endpointsOf(MODEL).find((e) => e.provider.slug === 'talk')!;
    const throughput = env.core.metrics.figures(endpoint.id, { fresh: true }).throughput;
    expect(throughput).not.toBeNull();
    // 11 tokens after the first over at least 30 ms: at most about 370 tokens a second.
    expect(throughput!.p50).toBeGreaterThan(0);
    expect(throughput!.p50).toBeLessThan(400);
  });

  it('the response names each provider that answered, when a fallback answered some questions', async () => {
    lp.script(
      WIRE.openai('Yes', {
        top: [
          { token: 'Yes', logprob: Math.log(0.8) },
          { token: 'No', logprob: Math.log(0.2) },
        ],
      }),
      { kind: 'respond', status: 500, chunks: ['{"error":{"message":"boom"}}'] },
    );
    talk.script(WIRE.anthropic('{"probabilities": {"A": 1, "B": 1}}'));
    const outcome = await decide({
      provider: { order: ['lp', 'talk'] },
      questions: { late: { type: 'noul', instructions: 'Late?' }, pick: { type: 'choice', instructions: 'Pick', criteria: { x: null, y: null } } },
    });
    expect(outcome.response.provider).toBe('LogProbs Co, Talk Co');
  });

  it('a refusal is an answer error naming it, tries no other provider, and is charged what it produced', async () => {
    // The shape of OpenAI's recorded refusal stream (fixtures/recorded/openai/chat-stream-refusal.sse), with usage.
    lp.script({
      kind: 'respond',
      status: 200,
      headers: { 'content-type': 'text/event-stream' },
      chunks: sse([
        { id: 'c', choices: [{ index: 0, delta: { role: 'assistant', content: null, refusal: '' }, finish_reason: null }] },
        { id: 'c', choices: [{ index: 0, delta: { refusal: "I'm sorry, I can't help with that." }, finish_reason: null }] },
        { id: 'c', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
        { id: 'c', choices: [], usage: { prompt_tokens: 120, completion_tokens: 9 } },
      ]),
    });
    const error = (await decide({ provider: { order: ['lp', 'talk'] }, questions: { late: { type: 'noul', instructions: 'Was it late?' } } }).catch(
      (e: unknown) => e,
    )) as GatewayError;
    expect(error).toBeInstanceOf(GatewayError);
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/declined to answer.*can't help with that/);
    expect(talk.received).toHaveLength(0);
    // 120 prompt tokens at $1/M and 9 output tokens at $2/M.
    expect(usageOf(error)).toEqual({ input_tokens: 120, output_tokens: 9, cost: 120e-6 + 18e-6 });
  });

  it('more than 26 options and more than 10 levels are answered, by stated probabilities over longer labels', async () => {
    const many = Object.fromEntries(Array.from({ length: 28 }, (_, i) => [`o${i}`, null]));
    // A (o0) … Z (o25), AA (o26), AB (o27): the model states its probabilities for each label.
    lp.script(
      WIRE.openai(
        '{"probabilities": {' +
          Array.from(
            { length: 28 },
            (_, i) => `"${i < 26 ? String.fromCharCode(65 + i) : `A${String.fromCharCode(65 + i - 26)}`}": ${i === 27 ? 0.73 : 0.01}`,
          ).join(', ') +
          '}}',
        { usage: { prompt: 300, completion: 200 } },
      ),
    );
    const choice = await decide({ provider: { order: ['lp'] }, questions: { q: { type: 'choice', instructions: 'x', criteria: many } } });
    expect(choice.methods['q']).toBe('verbalized');
    // 27 options at 0.01 and one at 0.73: H = 27 × 0.01 × ln 100 + 0.73 × ln(1/0.73) = 1.473135, 1 − H / ln 28 = 0.557910.
    expect(choice.response.answers['q']).toMatchObject({
      type: 'choice',
      choice: 'o27',
      confidence: 0.55791,
      probabilities: expect.objectContaining({ o27: 0.73, o0: 0.01 }),
    });
    const sent = (lp.received.at(-1)!.body as { messages: { content: string }[] }).messages.at(-1)!.content;
    expect(sent).toContain('AB) o27');
    expect(sent).not.toMatch(/top_logprobs/);

    const levels = Array.from({ length: 12 }, (_, i) => `level ${i}`);
    lp.script(
      WIRE.openai('{"probabilities": {' + levels.map((_, i) => `"${i}": ${i === 11 ? 0.5 : i === 10 ? 0.5 : 0}`).join(', ') + '}}', {
        usage: { prompt: 300, completion: 120 },
      }),
    );
    const score = await decide({ provider: { order: ['lp'] }, questions: { s: { type: 'score', instructions: 'x', criteria: levels } } });
    expect(score.methods['s']).toBe('verbalized');
    expect(score.response.answers['s']).toMatchObject({ type: 'score', score: 10.5 });
  });
});
