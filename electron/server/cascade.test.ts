import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CatalogFileSchema } from '../../shared/schemas/catalog';
import { ScriptedUpstream } from '../test-support/scripted-upstream';
import { tempDir } from '../test-support/temp-core';
import { ERROR_BODY, WIRE } from '../test-support/wire-fixtures';
import { startServer, type RunningServer } from './start-server';

const CHEAP = 1e-7;
const STRONG = 1e-5;
const TOKENS = { prompt: 1000, completion: 1 };
/** What one call costs at a price per token, from the scripted usage (independently of the server). */
const callCost = (price: number) => (TOKENS.prompt + TOKENS.completion) * price;

const MODEL = (id: string) => ({
  id,
  name: id,
  created: 1,
  architecture: { input_modalities: ['text'], output_modalities: ['text'], modality: 'text->text', instruct_type: null, tokenizer: null },
});
const catalog = (cheapUrl: string, strongUrl: string) =>
  CatalogFileSchema.parse({
    version: 1,
    providers: [
      { slug: 'quick', name: 'Quick', wire_format: 'openai', base_url: `${cheapUrl}/v1`, local: true },
      { slug: 'strong', name: 'Strong', wire_format: 'openai', base_url: `${strongUrl}/v1`, local: true },
    ],
    models: [MODEL('quick/judge'), MODEL('strong/judge')],
    endpoints: [
      {
        model_id: 'quick/judge',
        provider: 'quick',
        upstream_model: 'q-1',
        pricing: { prompt: String(CHEAP), completion: String(CHEAP) },
        supported_parameters: ['logprobs', 'top_logprobs', 'max_tokens'],
      },
      {
        model_id: 'strong/judge',
        provider: 'strong',
        upstream_model: 's-1',
        pricing: { prompt: String(STRONG), completion: String(STRONG) },
        supported_parameters: ['logprobs', 'top_logprobs', 'max_tokens'],
      },
    ],
  });
/** A yes/no answer with the given log-probabilities of Yes and No. */
const reply = (yes: number, no: number) =>
  WIRE.openai('Yes', {
    top: [
      { token: 'Yes', logprob: yes },
      { token: 'No', logprob: no },
    ],
    usage: TOKENS,
  });
const SURE = reply(-0.05, -3.5);
const UNSURE = reply(-0.69, -0.7);

const REQUEST = { model: 'quick/judge', state: 'The parcel came two days late.', questions: { late: { type: 'noul', instructions: 'Was it late?' } } };
const CASCADE = { model: 'strong/judge', when: { question: 'late', probabilityBetween: [0.2, 0.8] } };

describe('cascades on the spec route and System One: the uncertain answers go to the stronger model, both stages billed', () => {
  let cheap: ScriptedUpstream;
  let strong: ScriptedUpstream;
  let server: RunningServer;
  let key: string;
  let keyId: string;
  const dirs = [tempDir(), tempDir()];
  beforeAll(async () => {
    [cheap, strong] = await Promise.all([new ScriptedUpstream().start(), new ScriptedUpstream().start()]);
    server = await startServer({ port: 0, host: '127.0.0.1', dataDir: dirs[0]!.path, rendererDir: dirs[1]!.path, version: 'test', sandbox: {} });
    await server.core.replaceCatalogFile(catalog(cheap.url, strong.url));
    ({
      key,
      info: { id: keyId },
    } = await server.core.apiKeys.create('cascades', 'standard'));
  });
  afterAll(async () => {
    await server.close();
    await Promise.all([cheap.close(), strong.close()]);
    for (const d of dirs) d.cleanup();
  });
  beforeEach(() => {
    strong.always(SURE);
  });

  const post = (path: string, body: unknown, bearer = key) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const spent = async () => (await server.core.apiKeys.list()).find((k) => k.id === keyId)!.spent;
  const sent = () => [cheap.received.length, strong.received.length];

  it('an uncertain first answer is asked again of the second model: its answers, both stages in the usage and in the key spend', async () => {
    cheap.always(UNSURE);
    const [before, spentBefore] = [sent(), await spent()];
    const response = await post('/api/alpha/decisions', { ...REQUEST, cascade: CASCADE });
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      model: string;
      answers: { late: { noul: number } };
      usage: { cost: number; input_tokens: number };
      cascade: { answered_by: string; triggered_by: string[]; stages: { model: string; error: string | null; triggered_by?: string[] }[] };
    };
    expect(sent()).toEqual([before[0]! + 1, before[1]! + 1]);
    expect(body.answers.late.noul).toBeGreaterThan(0.9);
    expect(body.cascade.answered_by).toBe('strong/judge');
    expect(body.cascade.triggered_by).toEqual(['late']);
    expect(body.cascade.stages.map((s) => [s.model, s.error])).toEqual([
      ['quick/judge', null],
      ['strong/judge', null],
    ]);
    expect(body.cascade.stages[0]!.triggered_by).toEqual(['late']);
    expect(body.usage.cost).toBeCloseTo(callCost(CHEAP) + callCost(STRONG), 12);
    expect(body.usage.input_tokens).toBe(2 * TOKENS.prompt);
    // Listed to the micro-dollar.
    expect((await spent()) - spentBefore).toBeCloseTo(callCost(CHEAP) + callCost(STRONG), 6);
  });

  it('a sure first answer is the answer: the second model is not asked, one stage billed', async () => {
    cheap.always(SURE);
    const before = sent();
    const body = (await (await post('/api/alpha/decisions', { ...REQUEST, cascade: CASCADE })).json()) as {
      usage: { cost: number };
      cascade: { answered_by: string; triggered_by: string[]; stages: unknown[] };
    };
    expect(sent()).toEqual([before[0]! + 1, before[1]!]);
    expect(body.cascade).toMatchObject({ answered_by: 'quick/judge', triggered_by: [] });
    expect(body.cascade.stages).toHaveLength(1);
    expect(body.usage.cost).toBeCloseTo(callCost(CHEAP), 12);
  });

  it('a first stage that fails goes to the second model as an error fallback', async () => {
    cheap.always({ kind: 'respond', status: 503, headers: { 'content-type': 'application/json' }, chunks: [ERROR_BODY.openai('The server is overloaded')] });
    const response = await post('/api/alpha/decisions', { ...REQUEST, cascade: CASCADE });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { cascade: { answered_by: string; triggered_by: string[]; stages: { error: string | null }[] } };
    expect(body.cascade.answered_by).toBe('strong/judge');
    expect(body.cascade.triggered_by).toEqual([]);
    expect(body.cascade.stages[0]!.error).not.toBeNull();
  });

  it('System One takes the same field and answers with the record', async () => {
    cheap.always(UNSURE);
    const response = await post('/api/v1/systemone', { ...REQUEST, cascade: CASCADE });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { cascade: { answered_by: string } }).cascade.answered_by).toBe('strong/judge');
  });

  it('the credit reservation holds both stages: a key whose credit fits the first stage alone is refused before anything is sent', async () => {
    const first = server.core.decisions.admissionCost(REQUEST as never)!;
    const second = server.core.decisions.admissionCost({ ...REQUEST, model: 'strong/judge' } as never)!;
    const tight = await server.core.apiKeys.create('tight', 'standard', { credit_limit: Number((first + second / 2).toFixed(9)), rate_limit_rpm: null });
    const before = sent();
    const refused = await post('/api/alpha/decisions', { ...REQUEST, cascade: CASCADE }, tight.key);
    expect(refused.status).toBe(402);
    // Said to the micro-dollar.
    expect(((await refused.json()) as { error: { metadata: { request_max_cost: number } } }).error.metadata.request_max_cost).toBeCloseTo(first + second, 6);
    expect(sent()).toEqual(before);
    // Without the cascade the same key is answered: only the first stage is held.
    cheap.always(SURE);
    expect((await post('/api/alpha/decisions', REQUEST, tight.key)).status).toBe(200);
  });

  it('a preset saved under a name is used by it; an unknown name, or a preset chosen for another first model, is a 400 saying so', async () => {
    await server.core.cascadePresets.save({ name: 'judge unsure', model: 'strong/judge', first_model: 'quick/judge', when: CASCADE.when as never });
    cheap.always(UNSURE);
    const named = await post('/api/alpha/decisions', { ...REQUEST, cascade: 'judge unsure' });
    expect(named.status).toBe(200);
    expect(((await named.json()) as { cascade: { answered_by: string } }).cascade.answered_by).toBe('strong/judge');
    const unknown = await post('/api/alpha/decisions', { ...REQUEST, cascade: 'nobody' });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toBe('cascade: no cascade preset named "nobody"');
    const other = await post('/api/alpha/decisions', { ...REQUEST, model: 'strong/judge', cascade: 'judge unsure' });
    expect(other.status).toBe(400);
    expect(((await other.json()) as { error: { message: string } }).error.message).toContain(
      'was chosen for quick/judge first, and this request asks strong/judge',
    );
  });

  it.each([
    [{ model: 'strong/judge', when: { question: 'nope', probabilityBetween: [0.2, 0.8] } }, 'cascade.when.question: the request has no question "nope"'],
    [{ model: 'strong/judge', when: { question: 'late', confidenceBelow: 0.5 } }, 'cascade.when.confidenceBelow: question "late" is a yes/no (noul) question'],
    [{ model: 'strong/judge', when: { probabilityBetween: [0.9, 0.1] } }, 'cascade.when.probabilityBetween: the bounds must be ordered'],
    [{ model: 'strong/judge', when: { any: Array.from({ length: 21 }, () => ({ confidenceBelow: 0.5 })) } }, 'cascade.when.any: at most 20 conditions'],
    [{ when: { confidenceBelow: 0.5 } }, 'cascade.model'],
  ])('a cascade that does not fit is refused with 400 naming the parameter: %j', async (cascade, message) => {
    const before = sent();
    const response = await post('/api/alpha/decisions', { ...REQUEST, cascade });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain(message);
    expect(sent()).toEqual(before);
  });
});
