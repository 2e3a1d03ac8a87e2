import { describe, expect, it } from 'vitest';
import { AnswerSchema } from './answer';
import { DecisionsResponseSchema } from './decisions-response';
import { ErrorEnvelopeSchema } from './error-envelope';
import { EndpointSchema, ZdrEndpointSchema } from './endpoint';
import { ModelWithEndpointsSchema } from './model';

const ok = (schema: { safeParse(v: unknown): { success: boolean } }, value: unknown) => schema.safeParse(value).success;

const endpoint = {
  name: 'Acme | acme/small',
  model_id: 'acme/small',
  model_name: 'Acme Small',
  provider_name: 'Acme',
  tag: 'acme',
  context_length: 8192,
  max_completion_tokens: 1024,
  max_prompt_tokens: null,
  pricing: { prompt: '0.0000001', completion: '0.0000002' },
  quantization: 'fp8',
  status: 0,
  supported_parameters: ['logprobs', 'top_logprobs'],
  supports_diarization: false,
  supports_implicit_caching: true,
  supports_tool_choice: { auto: false, function: false, none: true, required: false },
  latency_last_30m: null,
  throughput_last_30m: { p50: 40, p75: 38, p90: 31, p99: 20 },
  uptime_last_5m: null,
  uptime_last_30m: 99.5,
  uptime_last_1d: 100,
};

describe('Answer (spec 2.4)', () => {
  it('each type carries its required field', () => {
    expect(ok(AnswerSchema, { type: 'noul', noul: 0.7 })).toBe(true);
    expect(ok(AnswerSchema, { type: 'noul' })).toBe(false);
    expect(ok(AnswerSchema, { type: 'choice', choice: 'red', confidence: 0.6, probabilities: { red: 0.6, blue: 0.4 } })).toBe(true);
    expect(ok(AnswerSchema, { type: 'choice', confidence: 0.6 })).toBe(false);
    expect(ok(AnswerSchema, { type: 'score', score: 1.4, probabilities: { '0': 0.2, '1': 0.2, '2': 0.6 }, legend: { '0': 'bad' } })).toBe(true);
    expect(ok(AnswerSchema, { type: 'score', probabilities: {} })).toBe(false);
    expect(ok(AnswerSchema, { type: 'box', box: { top: 0.1, bottom: 0.5, left: 0.2, right: 0.9 } })).toBe(true);
    expect(ok(AnswerSchema, { type: 'box', box: { top: 0.1, bottom: 0.5, left: 0.2 } })).toBe(false);
  });
  it('probabilities are in [0, 1] and score keys are level indexes', () => {
    expect(ok(AnswerSchema, { type: 'noul', noul: 1.2 })).toBe(false);
    expect(ok(AnswerSchema, { type: 'score', score: 1, probabilities: { one: 1 } })).toBe(false);
  });
  it('box edges must be ordered', () => {
    expect(ok(AnswerSchema, { type: 'box', box: { top: 0.6, bottom: 0.5, left: 0.2, right: 0.9 } })).toBe(false);
  });
});

describe('DecisionsResponse (spec 2.3)', () => {
  const response = { answers: { late: { type: 'noul', noul: 0.9 } }, model: 'acme/small', usage: { input_tokens: 10, output_tokens: 1 } };
  it('needs answers, model and usage with integer token counts', () => {
    expect(ok(DecisionsResponseSchema, response)).toBe(true);
    expect(ok(DecisionsResponseSchema, { ...response, id: 'gen-1', provider: 'Acme', usage: { ...response.usage, cost: 0.0001 } })).toBe(true);
    expect(ok(DecisionsResponseSchema, { ...response, usage: undefined })).toBe(false);
    expect(ok(DecisionsResponseSchema, { ...response, usage: { input_tokens: 1.5, output_tokens: 1 } })).toBe(false);
    expect(ok(DecisionsResponseSchema, { answers: response.answers, usage: response.usage })).toBe(false);
  });
});

describe('Error envelope (spec 2.7)', () => {
  it('error.code is an integer and message a string; metadata optional or null', () => {
    expect(ok(ErrorEnvelopeSchema, { error: { code: 400, message: 'bad' } })).toBe(true);
    expect(ok(ErrorEnvelopeSchema, { error: { code: 400, message: 'bad', metadata: null }, user_id: null })).toBe(true);
    expect(ok(ErrorEnvelopeSchema, { error: { code: '400', message: 'bad' } })).toBe(false);
    expect(ok(ErrorEnvelopeSchema, { error: { code: 400 } })).toBe(false);
  });
});

describe('Endpoint and model records (spec 2.8, 2.9)', () => {
  it('accepts measured figures or null, never missing', () => {
    expect(ok(EndpointSchema, endpoint)).toBe(true);
    const { uptime_last_5m: _drop, ...missing } = endpoint;
    expect(ok(EndpointSchema, missing)).toBe(false);
  });
  it('pricing numbers are carried as strings', () => {
    expect(ok(EndpointSchema, { ...endpoint, pricing: { prompt: 0.1, completion: '0' } })).toBe(false);
  });
  it('quantization is one of the spec values', () => {
    expect(ok(EndpointSchema, { ...endpoint, quantization: 'q4' })).toBe(false);
  });
  it('the ZDR preview adds four fields', () => {
    expect(ok(ZdrEndpointSchema, endpoint)).toBe(false);
    expect(
      ok(ZdrEndpointSchema, {
        ...endpoint,
        native_tools: {},
        supports_image_reference: false,
        supports_multiple_audio_references: false,
        supports_voice_cloning: false,
      }),
    ).toBe(true);
  });
  it('a model id has the form author/slug', () => {
    const model = {
      id: 'acme/small',
      name: 'Acme Small',
      created: 1_700_000_000,
      description: '',
      architecture: { input_modalities: ['text'], output_modalities: ['text'], modality: 'text->text', instruct_type: null, tokenizer: 'Other' },
      endpoints: [endpoint],
    };
    expect(ok(ModelWithEndpointsSchema, model)).toBe(true);
    expect(ok(ModelWithEndpointsSchema, { ...model, id: 'small' })).toBe(false);
  });
});
