import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogFileSchema, type CatalogFileInput } from '../../../shared/schemas/catalog';
import type { DecisionsRequest } from '../../../shared/schemas/decisions-request';
import { startServer, type RunningServer } from '../../server/start-server';
import { pngWithRect } from '../../test-support/images';
import { HOST_KEYS, startDecisionHosts, type DecisionHosts, type HostName } from '../../test-support/strict-decision-hosts';
import { tempCore, tempDir } from '../../test-support/temp-core';
import { usageOf } from './usage';

/**
 * Decision models answered natively by hosts of both wire families, through the spec's route on a
 * real server, against strict loopback hosts built from what the hosts publish
 * (test-support/strict-decision-hosts.ts). The gateway must pass each host's numbers on as they are,
 * send each request only where it fits, read cached tokens and the host's cost, fall back from a
 * host that breaks its own rules, and name a refused question.
 */

const MODEL = 'acme/decider';
const SMALL = 'acme/small-decider';
const FIXTURES = join(import.meta.dirname, '..', '..', 'test-support', 'fixtures', 'decisions');
const fixture = <T>(file: string): T => JSON.parse(readFileSync(join(FIXTURES, file), 'utf8')) as T;

const model = (id: string) => ({
  id,
  name: id,
  created: 1,
  architecture: {
    input_modalities: ['text', 'image'],
    output_modalities: ['decisions'],
    modality: 'text+image->decisions',
    instruct_type: null,
    tokenizer: null,
  },
  locates_objects: true,
});

function catalog(url: string): CatalogFileInput {
  const price = (prompt: string, extra: Record<string, string> = {}) => ({ prompt, completion: '0', ...extra });
  return {
    version: 1,
    providers: [
      { slug: 'typesafe', name: 'TypeSafe', wire_format: 'systemone', base_url: `${url}/typesafe/v1` },
      { slug: 'openrouter', name: 'OpenRouter', wire_format: 'decisions', base_url: `${url}/openrouter/api/v1` },
      { slug: 'perplexity', name: 'Perplexity', wire_format: 'systemone', base_url: `${url}/perplexity` },
      { slug: 'cloudflare', name: 'Cloudflare Workers AI', wire_format: 'systemone', base_url: `${url}/cloudflare/client/v4/accounts/acc-1/ai/run` },
      { slug: 'openai', name: 'OpenAI', wire_format: 'openai', base_url: `${url}/openai/v1` },
      { slug: 'fireworks', name: 'Fireworks', wire_format: 'openai', base_url: `${url}/fireworks/inference/v1` },
    ],
    models: [model(MODEL), model(SMALL)],
    endpoints: [
      { model_id: MODEL, provider: 'typesafe', upstream_model: 'jev-1.13.0', pricing: price('0.000000042') },
      { model_id: MODEL, provider: 'openrouter', upstream_model: 'typesafe/jev-1.13', pricing: price('0.000000042') },
      { model_id: MODEL, provider: 'perplexity', upstream_model: 'pplx-decider-v1-27b', pricing: price('0.00000004') },
      { model_id: MODEL, provider: 'cloudflare', upstream_model: '@cf/cloudflare/clef', pricing: price('0.00000024') },
      {
        model_id: MODEL,
        provider: 'openai',
        upstream_model: 'gpt-6-luna',
        wire_format: 'openai-decisions',
        pricing: price('0.0000001', { input_cache_read: '0.000000025' }),
      },
      { model_id: MODEL, provider: 'fireworks', upstream_model: 'accounts/acme/models/decider', wire_format: 'openai-decisions', pricing: price('0.0000002') },
      // Hosts that all publish their limits: a request none of them can take is the caller's to change.
      { model_id: SMALL, provider: 'typesafe', upstream_model: 'jev-1.13.0', pricing: price('0.000000042') },
      { model_id: SMALL, provider: 'openai', upstream_model: 'gpt-6-luna', wire_format: 'openai-decisions', pricing: price('0.0000001') },
      { model_id: SMALL, provider: 'cloudflare', upstream_model: '@cf/cloudflare/clef', pricing: price('0.00000024') },
    ],
  };
}

const QUESTIONS = {
  late: { type: 'noul', instructions: 'Was the parcel late?', criteria: { true: 'It arrived after the promised day.', false: 'It arrived on time.' } },
  topic: {
    type: 'choice',
    instructions: 'What is the message about?',
    criteria: { delivery: 'Shipping and parcels', billing: 'Charges and refunds', other: null },
  },
  mood: { type: 'score', instructions: 'How upset is the customer?', criteria: ['calm', 'annoyed', 'angry'] },
} as const;
const STATE = 'The parcel came two days late and the box was crushed.';

type Body = {
  error?: { code: number; message: string; metadata?: Record<string, unknown> };
  answers?: Record<string, Record<string, unknown>>;
  usage?: { input_tokens: number; output_tokens: number; cost?: number };
  provider?: string;
};

describe('decision models on their native hosts, through POST /api/alpha/decisions', () => {
  let hosts: DecisionHosts;
  let server: RunningServer;
  let key: string;
  const dirs = [tempDir(), tempDir()];

  beforeAll(async () => {
    hosts = await startDecisionHosts();
    server = await startServer({
      port: 0,
      host: '127.0.0.1',
      dataDir: dirs[0]!.path,
      rendererDir: dirs[1]!.path,
      version: 'test',
      overrideGlobalObjects: false,
      sandbox: { seed: 1, failures: false, timeScale: 0.02 },
      timeouts: { deadlineMs: 10_000, attemptMs: 5_000 },
    });
    await server.core.handlers['settings.update']({ sandbox: 'off' });
    await server.core.replaceCatalogFile(CatalogFileSchema.parse(catalog(hosts.url)));
    for (const [slug, secret] of Object.entries(HOST_KEYS)) await server.core.providerKeys.set(slug, secret);
    key = (await server.core.apiKeys.create('caller', 'standard')).key;
  }, 30_000);
  afterAll(async () => {
    await server.close();
    await hosts.close();
    for (const d of dirs) d.cleanup();
  });

  const ask = async (body: Record<string, unknown>) => {
    const response = await fetch(`${server.url}/api/alpha/decisions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: MODEL, state: STATE, ...body }),
    });
    return { status: response.status, body: (await response.json()) as Body };
  };
  const only = (host: string) => ({ only: [host], allow_fallbacks: false });

  describe('every question kind through every host that takes it, numbers unchanged', () => {
    for (const host of ['typesafe', 'perplexity', 'cloudflare'] as const) {
      it(`${host} (System One): the answers are the host's, as it sent them`, async () => {
        const { status, body } = await ask({ questions: QUESTIONS, provider: only(host) });
        expect(status, JSON.stringify(body)).toBe(200);
        const sent = hosts.last(host)!.reply.body as Record<string, unknown>;
        const reply = (host === 'cloudflare' ? sent['result'] : sent) as { answers: unknown };
        expect(body.answers).toEqual(reply.answers);
      });
    }

    it("openrouter (the alpha route of another gateway): answers and the host's own cost as it sent them", async () => {
      const image = pngWithRect(64, 48, { x: 10, y: 8, w: 30, h: 20 });
      const { status, body } = await ask({
        state: [STATE, { type: 'image_url', image_url: { url: image } }],
        questions: { ...QUESTIONS, parcel: { type: 'box', instructions: 'the parcel' } },
        provider: only('openrouter'),
      });
      expect(status, JSON.stringify(body)).toBe(200);
      const sent = hosts.last('openrouter')!;
      const reply = sent.reply.body as { answers: unknown; usage: { cost: number } };
      expect(body.answers).toEqual(reply.answers);
      expect(body.usage!.cost).toBe(reply.usage.cost);
      // The image travelled as a part of the state, the way OpenRouter documents.
      expect((sent.body as { state: unknown[] }).state[1]).toEqual({ type: 'image_url', image_url: { url: image } });
    });

    for (const host of ['openai', 'fireworks'] as const) {
      it(`${host} (OpenAI Decisions): each number of the answers array lands on its question`, async () => {
        const { status, body } = await ask({ questions: QUESTIONS, provider: only(host) });
        expect(status, JSON.stringify(body)).toBe(200);
        const [late, topic, mood] = (hosts.last(host)!.reply.body as { answers: Record<string, unknown>[] }).answers as [
          { name: string; probability: number },
          { name: string; choice: string; confidence: number; probabilities: { value: string; probability: number }[] },
          { name: string; score: number; confidence: number; probabilities: { value: number; label: string; probability: number }[] },
        ];
        expect([late.name, topic.name, mood.name]).toEqual(['late', 'topic', 'mood']);
        expect(body.answers!['late']).toEqual({ type: 'noul', noul: late.probability });
        expect(body.answers!['topic']).toEqual({
          type: 'choice',
          choice: topic.choice,
          confidence: topic.confidence,
          probabilities: Object.fromEntries(topic.probabilities.map((p) => [p.value, p.probability])),
        });
        expect(body.answers!['mood']).toMatchObject({ type: 'score', score: mood.score, confidence: mood.confidence });
        for (const p of mood.probabilities) expect(body.answers!['mood']!['probabilities']).toHaveProperty(String(p.value), p.probability);
        expect(body.answers!['mood']!['legend']).toEqual({ '0': 'calm', '1': 'annoyed', '2': 'angry' });
        // OpenAI's shape has no criteria: the noul criteria travelled inside the instructions, as the AI SDK folds them;
        // levels are labelled by their index (the AI SDK's convention), choices by their names.
        const [predicate, choice, score] = (hosts.last(host)!.body as { questions: Record<string, unknown>[] }).questions as [
          Record<string, unknown>,
          Record<string, unknown>,
          Record<string, unknown>,
        ];
        expect(predicate).toEqual({
          type: 'predicate',
          name: 'late',
          instructions: 'Was the parcel late?\n\nCriteria for true:\nIt arrived after the promised day.\n\nCriteria for false:\nIt arrived on time.',
        });
        expect(choice['choices']).toEqual([
          { value: 'delivery', description: 'Shipping and parcels' },
          { value: 'billing', description: 'Charges and refunds' },
          { value: 'other' },
        ]);
        expect(score['levels']).toEqual([
          { label: '0', description: 'calm' },
          { label: '1', description: 'annoyed' },
          { label: '2', description: 'angry' },
        ]);
      });
    }

    it("TypeSafe's and Perplexity's published replies come back as published, structured legend and all", async () => {
      for (const [host, file, model] of [
        ['typesafe', 'typesafe', 'jev-latest'],
        ['perplexity', 'perplexity', 'pplx-decider-v1-27b'],
      ] as const) {
        const request = fixture<DecisionsRequest & { model: string }>(`${file}/${host === 'typesafe' ? 'evaluation' : 'decision'}-request.json`);
        const endpoint = server.core.catalog.endpointsOf(MODEL).find((e) => e.provider.slug === host)!;
        // The published requests name their host's model: the endpoint is asked as they ask it.
        const outcome = await server.core.upstreams.decide(
          { ...endpoint, upstreamModel: model },
          { state: request.state, parts: [], questions: request.questions, assets: [] },
          AbortSignal.timeout(5000),
        );
        expect(outcome.answers).toEqual(fixture<{ answers: unknown }>(`${file}/decision-response.json`).answers);
      }
    });

    it("OpenRouter's published reply passes through: confidence 0.67 beside 0.78, score 1.99 beside a mean of 2.00", async () => {
      const request = fixture<DecisionsRequest>('openrouter/decisions-request.json');
      const { status, body } = await ask({ ...request, model: MODEL, provider: only('openrouter') });
      expect(status, JSON.stringify(body)).toBe(200);
      expect(body.answers).toEqual(fixture<{ answers: unknown }>('openrouter/decisions-response.json').answers);
      expect(body.usage!.cost).toBe(0.000019992);
    });
  });

  describe('an endpoint that cannot take the request is left out, and says why', () => {
    it('11 score levels skip TypeSafe and Perplexity (10 at most) and go to OpenAI', async () => {
      const levels = Array.from({ length: 11 }, (_, i) => `level ${i}`);
      const outcome = await server.core.decisions.decide(
        {
          model: MODEL,
          state: STATE,
          questions: { mood: { type: 'score', instructions: 'How upset?', criteria: levels } },
          provider: { order: ['typesafe', 'perplexity', 'openai'] },
        } as DecisionsRequest,
        { requestId: 'levels' },
      );
      expect(outcome.endpoint.provider.slug).toBe('openai');
      const why = Object.fromEntries(outcome.plan.excluded.map((e) => [e.endpoint.provider.slug, e.reason]));
      expect(why['typesafe']).toBe('TypeSafe takes at most 10 score levels (questions.mood has 11)');
      expect(why['perplexity']).toBe('Perplexity takes at most 10 score levels (questions.mood has 11)');
      expect(hosts.exchanges.filter((e) => e.host === 'typesafe' && JSON.stringify(e.body).includes('level 10'))).toHaveLength(0);
    });

    it('one option goes where one option is taken; 300 options, where no host takes them, are a 400 naming the limit', async () => {
      const one = await ask({
        model: SMALL,
        questions: { pick: { type: 'choice', instructions: 'Which?', criteria: { only: null } } },
        provider: { order: ['openai', 'cloudflare', 'typesafe'] },
      });
      expect(one.status, JSON.stringify(one.body)).toBe(200);
      expect(hosts.last('typesafe')!.body).toMatchObject({ questions: { pick: { criteria: { only: null } } } });
      const many = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`o${i}`, null]));
      const { status, body } = await ask({ model: SMALL, questions: { pick: { type: 'choice', instructions: 'Which?', criteria: many } } });
      expect(status).toBe(400);
      expect(body.error!.message).toContain('TypeSafe takes at most 255 choices (questions.pick has 300)');
      expect(body.error!.message).toContain('OpenAI takes at most 255 choices (questions.pick has 300)');
    });

    it('a box goes only where boxes are answered; images skip a text-only host; 65 questions skip Cloudflare', async () => {
      const image = pngWithRect(40, 40, { x: 5, y: 5, w: 20, h: 20 });
      const box = await server.core.decisions.decide(
        {
          model: MODEL,
          state: [{ type: 'image_url', image_url: { url: image } }],
          questions: { thing: { type: 'box', instructions: 'the square' } },
        } as DecisionsRequest,
        { requestId: 'box' },
      );
      expect(box.endpoint.provider.slug).toBe('openrouter');
      const why = Object.fromEntries(box.plan.excluded.map((e) => [e.endpoint.provider.slug, e.reason]));
      expect(why['typesafe']).toMatch(/^TypeSafe answers no box questions here \(questions\.thing\); TypeSafe's image and box beta/);
      expect(why['openai']).toBe('OpenAI answers no box questions here (questions.thing)');

      const pictured = await server.core.decisions.decide(
        {
          model: MODEL,
          state: [STATE, { type: 'image_url', image_url: { url: image } }],
          questions: { late: QUESTIONS.late },
          provider: { order: ['fireworks', 'openai'] },
        } as DecisionsRequest,
        { requestId: 'img' },
      );
      expect(pictured.endpoint.provider.slug).toBe('openai');
      expect(pictured.plan.excluded.find((e) => e.endpoint.provider.slug === 'fireworks')!.reason).toMatch(
        /^Fireworks takes no images here \(state has 1 image\)/,
      );

      const questions = Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`q${i}`, { type: 'noul', instructions: `Question ${i}?` }]));
      const wide = await server.core.decisions.decide(
        { model: MODEL, state: STATE, questions, provider: { order: ['cloudflare', 'typesafe'] } } as DecisionsRequest,
        { requestId: 'wide' },
      );
      expect(wide.endpoint.provider.slug).toBe('typesafe');
      expect(wide.plan.excluded.find((e) => e.endpoint.provider.slug === 'cloudflare')!.reason).toBe(
        'Cloudflare Workers AI takes at most 64 questions (this request has 65)',
      );
    });

    it("a state past TypeSafe's 64,000 tokens goes elsewhere", async () => {
      const long = 'The parcel came late. '.repeat(15_000);
      const outcome = await server.core.decisions.decide(
        { model: MODEL, state: long, questions: { late: QUESTIONS.late }, provider: { order: ['typesafe', 'openai'] } } as DecisionsRequest,
        { requestId: 'long' },
      );
      expect(outcome.endpoint.provider.slug).toBe('openai');
      expect(outcome.plan.excluded.find((e) => e.endpoint.provider.slug === 'typesafe')!.reason).toMatch(
        /^TypeSafe reads at most 64,000 tokens of state and questions here \(this request has about 82,5\d\d/,
      );
    });
  });

  it('cached tokens reported by the host appear in usage and are priced at the cache price', async () => {
    hosts.script('openai', (body) => {
      const questions = body['questions'] as { name: string }[];
      return {
        status: 200,
        body: {
          model: 'gpt-6-luna',
          answers: questions.map((q) => ({ type: 'predicate', name: q.name, probability: 0.25 })),
          usage: {
            input_tokens: 1500,
            input_tokens_details: { cached_tokens: 1000, cache_write_tokens: 0 },
            output_tokens: 1,
            output_tokens_details: { reasoning_tokens: 0 },
            total_tokens: 1501,
          },
        },
      };
    });
    const { status, body } = await ask({ questions: { late: QUESTIONS.late }, provider: only('openai') });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.usage).toEqual({ input_tokens: 1500, output_tokens: 1, cost: Number((500 * 1e-7 + 1000 * 2.5e-8).toPrecision(12)) });
  });

  describe('a host that breaks its own rules is an invalid response: the next endpoint answers', () => {
    const broken: [string, HostName, (answers: Record<string, Record<string, unknown>>) => void][] = [
      ['probabilities summing to 0.9', 'typesafe', (a) => (a['topic']!['probabilities'] = { delivery: 0.5, billing: 0.3, other: 0.1 })],
      [
        'a choice that is not the most likely',
        'typesafe',
        (a) => Object.assign(a['topic']!, { choice: 'other', probabilities: { delivery: 0.7, billing: 0.2, other: 0.1 } }),
      ],
      [
        'a score that is not the mean of its levels',
        'perplexity',
        (a) => Object.assign(a['mood']!, { score: 0.2, probabilities: { '0': 0.1, '1': 0.1, '2': 0.8 } }),
      ],
      ['a question left unanswered', 'typesafe', (a) => delete a['late']],
      ['an answer of the wrong type', 'perplexity', (a) => (a['late'] = { type: 'choice', choice: 'x', confidence: 1, probabilities: { x: 1 } })],
    ];
    for (const [what, host, breakIt] of broken) {
      it(what, async () => {
        hosts.script(host, (body) => {
          const questions = body['questions'] as Record<string, unknown>;
          const answers: Record<string, Record<string, unknown>> = {
            late: { type: 'noul', noul: 0.8 },
            topic: { type: 'choice', choice: 'delivery', confidence: 0.4, probabilities: { delivery: 0.6, billing: 0.3, other: 0.1 } },
            mood: {
              type: 'score',
              score: 1.3,
              confidence: 0.2,
              probabilities: { '0': 0.2, '1': 0.3, '2': 0.5 },
              legend: { '0': 'calm', '1': 'annoyed', '2': 'angry' },
            },
          };
          breakIt(answers);
          expect(Object.keys(questions)).toEqual(['late', 'topic', 'mood']);
          return { status: 200, body: { model: 'm', answers, usage: { input_tokens: 10, output_tokens: 3 } } };
        });
        const outcome = await server.core.decisions.decide(
          { model: MODEL, state: STATE, questions: QUESTIONS, provider: { order: [host, 'openai'] } } as unknown as DecisionsRequest,
          { requestId: what },
        );
        expect(outcome.endpoint.provider.slug).toBe('openai');
        expect(outcome.attempts[0]).toMatchObject({ outcome: 'invalid_response' });
        expect(outcome.attempts[0]!.message).toContain("the answers break the host's own rules");
      });
    }

    it('box edges out of order (OpenRouter)', async () => {
      hosts.script('openrouter', () => ({
        status: 200,
        body: {
          model: 'm',
          answers: { thing: { type: 'box', box: { top: 0.5, bottom: 0.5, left: 0.1, right: 0.2 } } },
          usage: { input_tokens: 10, output_tokens: 3 },
        },
      }));
      const image = pngWithRect(40, 40, { x: 5, y: 5, w: 20, h: 20 });
      const error = await server.core.decisions
        .decide(
          {
            model: MODEL,
            state: [{ type: 'image_url', image_url: { url: image } }],
            questions: { thing: { type: 'box', instructions: 'the square' } },
            provider: only('openrouter'),
          } as DecisionsRequest,
          { requestId: 'bad-box' },
        )
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ status: 502 });
      expect((error as Error).message).toContain('answers.thing.box: box edges out of order or of no area');
    });
  });

  it('a question OpenAI refuses is a 400 naming it, and what the call cost is charged', async () => {
    hosts.script('openai', (body) => {
      const questions = body['questions'] as { name: string }[];
      return {
        status: 200,
        body: {
          model: 'gpt-6-luna',
          answers: questions.map((q) => (q.name === 'topic' ? { type: 'refusal', name: 'topic' } : { type: 'predicate', name: q.name, probability: 0.5 })),
          usage: {
            input_tokens: 4000,
            input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
            output_tokens: 2,
            output_tokens_details: { reasoning_tokens: 0 },
            total_tokens: 4002,
          },
        },
      };
    });
    const before = (await server.core.apiKeys.list()).find((k) => k.name === 'caller')!.spent;
    const { status, body } = await ask({
      questions: { late: QUESTIONS.late, topic: { type: 'noul', instructions: 'Is it about billing?' } },
      provider: only('openai'),
    });
    expect(status).toBe(400);
    expect(body.error!.message).toMatch(/^questions\.topic: OpenAI declined to answer this question/);
    expect(body.error!.metadata).toMatchObject({ refused: ['topic'] });
    const after = (await server.core.apiKeys.list()).find((k) => k.name === 'caller')!.spent;
    expect(after - before).toBeCloseTo(4000 * 1e-7, 12);
  });

  it("a key the host refuses is a provider fault, said with the host's own message", async () => {
    await server.core.providerKeys.set('typesafe', 'ts-wrong-key-000');
    try {
      const { status, body } = await ask({ questions: { late: QUESTIONS.late }, provider: only('typesafe') });
      expect(status).toBe(502);
      expect(body.error!.message).toContain('typesafe: HTTP 401: Invalid API key');
    } finally {
      await server.core.providerKeys.set('typesafe', HOST_KEYS.typesafe);
    }
  });

  it("Cloudflare's address takes the account id entered in Settings in place of {account_id}", async () => {
    const file = catalog(hosts.url);
    const placeholder = file.providers!.map((p) =>
      p.slug === 'cloudflare' ? { ...p, base_url: `${hosts.url}/cloudflare/client/v4/accounts/{account_id}/ai/run` } : p,
    );
    await server.core.replaceCatalogFile(CatalogFileSchema.parse({ ...file, providers: placeholder }));
    try {
      const without = await ask({ questions: { late: QUESTIONS.late }, provider: only('cloudflare') });
      expect(without.body.error!.message).toContain('needs your account id in place of {account_id} (enter it beside the provider');
      await server.core.handlers['settings.update']({ provider_accounts: { cloudflare: 'acc-1' } });
      const answered = await ask({ questions: { late: QUESTIONS.late }, provider: only('cloudflare') });
      expect(answered.status, JSON.stringify(answered.body)).toBe(200);
      expect(hosts.last('cloudflare')!.reply.body).toMatchObject({ success: true });
    } finally {
      await server.core.handlers['settings.update']({ provider_accounts: {} });
      await server.core.replaceCatalogFile(CatalogFileSchema.parse(file));
    }
  });

  it('usageOf a failed request carries what it cost', async () => {
    hosts.script('perplexity', () => ({ status: 200, body: { model: 'm', answers: {}, usage: { input_tokens: 1000, output_tokens: 0 } } }));
    const error = await server.core.decisions
      .decide({ model: MODEL, state: STATE, questions: { late: QUESTIONS.late }, provider: only('perplexity') } as DecisionsRequest, { requestId: 'billed' })
      .catch((e: unknown) => e);
    expect(usageOf(error)).toEqual({ input_tokens: 1000, output_tokens: 0, cost: 1000 * 4e-8 });
  });
});

describe("discovery reads TypeSafe's model listing", () => {
  it('names it lists attach to the bundled models that carry them; a new one becomes a decision model', async () => {
    const hosts = await startDecisionHosts();
    const env = await tempCore({ sandbox: { failures: false } });
    try {
      await env.core.replaceCatalogFile(
        CatalogFileSchema.parse({
          version: 1,
          providers: [{ slug: 'typesafe', name: 'TypeSafe', wire_format: 'systemone', base_url: `${hosts.url}/typesafe/v1` }],
        }),
      );
      await env.core.providerKeys.set('typesafe', HOST_KEYS.typesafe);
      const [result] = (await env.core.refreshDiscovery()).filter((r) => r.provider === 'typesafe');
      expect(result).toMatchObject({ models: 3, error: null });
      // jev-1.13.0 and jev-1.14.0 are the upstream names of the bundled models: no second model for them.
      expect(env.core.catalog.endpointsOf('typesafe/jev-1.13').map((e) => e.provider.slug)).toContain('typesafe');
      expect(env.core.catalog.hasModel('typesafe/jev-1.13.0')).toBe(false);
      const latest = env.core.catalog.model('typesafe/jev-latest');
      expect(latest.architecture.output_modalities).toEqual(['decisions']);
      expect(latest.created).toBe(Date.parse('2026-09-15T00:00:00Z') / 1000);
      expect(env.core.catalog.endpointsOf('typesafe/jev-latest')[0]!.host?.name).toBe('TypeSafe');
    } finally {
      await env.cleanup();
      await hosts.close();
    }
  });
});
