import { describe, expect, it } from 'vitest';
import { DecisionsRequestSchema } from './decisions-request';
import { ProviderPreferencesSchema } from './provider-preferences';
import { summarizeIssues } from '../contract/result';

const base = {
  model: 'acme/small',
  state: 'The parcel arrived two days late.',
  questions: { late: { type: 'noul', instructions: 'Was the delivery late?' } },
};

/** Parses a request and returns either 'ok' or the summary of its problems (paths and messages). */
function check(value: unknown): string {
  const parsed = DecisionsRequestSchema.safeParse(value);
  return parsed.success ? 'ok' : summarizeIssues(parsed.error, 20);
}

const withQuestion = (question: unknown) => ({ ...base, questions: { q: question } });
const withProvider = (provider: unknown) => ({ ...base, provider });

describe('DecisionsRequest (spec 2.1)', () => {
  it('accepts the minimal request', () => expect(check(base)).toBe('ok'));
  it('requires model, state and questions', () => {
    const problems = check({});
    expect(problems).toContain('model:');
    expect(problems).toContain('state:');
    expect(problems).toContain('questions:');
  });
  it('accepts state as a string, an object or an array', () => {
    expect(check({ ...base, state: { ticket: 42, text: 'late' } })).toBe('ok');
    expect(check({ ...base, state: ['a', { type: 'image_url', image_url: { url: 'data:image/png;base64,AA==' } }] })).toBe('ok');
  });
  it('rejects state of another type', () => {
    expect(check({ ...base, state: 42 })).toMatch(/^state: expected state/);
    expect(check({ ...base, state: null })).toMatch(/^state:/);
  });
  it('rejects an empty questions map', () => expect(check({ ...base, questions: {} })).toMatch(/^questions: at least 1 question/));
  it('limits session_id and user to 256 characters (spec 8)', () => {
    expect(check({ ...base, session_id: 's'.repeat(256), user: 'u'.repeat(256) })).toBe('ok');
    expect(check({ ...base, session_id: 's'.repeat(257) })).toMatch(/^session_id: session_id is at most 256/);
    expect(check({ ...base, user: 'u'.repeat(257) })).toMatch(/^user: user is at most 256/);
  });
  it('keeps unknown trace keys and checks the known ones are strings (spec 2.6)', () => {
    const parsed = DecisionsRequestSchema.parse({ ...base, trace: { trace_id: 't1', team: 'ops', depth: 3 } });
    expect(parsed.trace).toEqual({ trace_id: 't1', team: 'ops', depth: 3 });
    expect(check({ ...base, trace: { span_name: 7 } })).toMatch(/^trace\.span_name:/);
  });
});

describe('Question (spec 2.2)', () => {
  it('noul: criteria optional; when given it needs both true and false', () => {
    expect(check(withQuestion({ type: 'noul', instructions: 'x' }))).toBe('ok');
    expect(check(withQuestion({ type: 'noul', instructions: 'x', criteria: { true: 'yes', false: { detail: 'no' } } }))).toBe('ok');
    expect(check(withQuestion({ type: 'noul', instructions: 'x', criteria: { true: 'yes' } }))).toMatch(/^questions\.q\.criteria\.false:/);
  });
  it('instructions are guidance: string, object or array, and required', () => {
    expect(check(withQuestion({ type: 'box', instructions: ['find', { the: 'cat' }] }))).toBe('ok');
    expect(check(withQuestion({ type: 'box', instructions: 3 }))).toMatch(/^questions\.q\.instructions: expected guidance/);
    expect(check(withQuestion({ type: 'box' }))).toMatch(/^questions\.q\.instructions:/);
  });
  it('choice: criteria required, values guidance or null', () => {
    expect(check(withQuestion({ type: 'choice', instructions: 'x', criteria: { red: null, blue: 'sky' } }))).toBe('ok');
    expect(check(withQuestion({ type: 'choice', instructions: 'x' }))).toMatch(/^questions\.q\.criteria:/);
    expect(check(withQuestion({ type: 'choice', instructions: 'x', criteria: { red: 5 } }))).toMatch(/^questions\.q\.criteria\.red:/);
  });
  it('score: criteria required with at least 1 item (spec 8)', () => {
    expect(check(withQuestion({ type: 'score', instructions: 'x', criteria: ['bad'] }))).toBe('ok');
    expect(check(withQuestion({ type: 'score', instructions: 'x', criteria: [] }))).toMatch(/^questions\.q\.criteria: a score question needs at least 1/);
    expect(check(withQuestion({ type: 'score', instructions: 'x' }))).toMatch(/^questions\.q\.criteria:/);
  });
  it('box: only type and instructions', () => {
    expect(check(withQuestion({ type: 'box', instructions: 'the cat' }))).toBe('ok');
    expect(check(withQuestion({ type: 'box', instructions: 'the cat', criteria: ['x'] }))).toMatch(/^questions\.q\.criteria: unknown property "criteria"/);
  });
  it('rejects an unknown type, naming the field', () => {
    expect(check(withQuestion({ type: 'rank', instructions: 'x' }))).toMatch(/^questions\.q\.type:/);
  });
  it('names the question with a non-identifier name by bracket path', () => {
    expect(check({ ...base, questions: { 'is it late?': { type: 'score', instructions: 'x', criteria: [] } } })).toMatch(
      /^questions\["is it late\?"\]\.criteria:/,
    );
  });
});

describe('ProviderPreferences (spec 2.5)', () => {
  it('accepts null and every documented field', () => {
    expect(check(withProvider(null))).toBe('ok');
    expect(
      check(
        withProvider({
          allow_fallbacks: false,
          data_collection: 'deny',
          enforce_distillable_text: true,
          ignore: ['deepinfra'],
          only: ['openai', 'Some Display Name'],
          order: ['openai', 'deepinfra/turbo'],
          max_price: { prompt: '1', completion: '2.5', request: '0', image: '0.01', audio: '.5' },
          options: { openai: { anything: [1, 2] } },
          preferred_max_latency: { p50: 1.5, p90: null },
          preferred_min_throughput: 40,
          quantizations: ['fp8', 'bf16', 'unknown'],
          require_parameters: true,
          sort: { by: 'throughput', partition: 'none' },
          zdr: true,
        }),
      ),
    ).toBe('ok');
  });
  it('allows no additional properties, naming the unknown one', () => {
    expect(check(withProvider({ sortt: 'price' }))).toBe('provider.sortt: unknown property "sortt" is not allowed here');
  });
  it('checks enums', () => {
    expect(check(withProvider({ data_collection: 'maybe' }))).toMatch(/^provider\.data_collection:/);
    expect(check(withProvider({ sort: 'cheapest' }))).toMatch(/^provider\.sort:/);
    expect(check(withProvider({ sort: { by: 'price', partition: 'provider' } }))).toMatch(/^provider\.sort/);
    expect(check(withProvider({ quantizations: ['fp8', 'q4_k_m'] }))).toMatch(/^provider\.quantizations\[1\]:/);
  });
  it('sort accepts each string value and the object form', () => {
    for (const by of ['price', 'throughput', 'latency', 'exacto']) {
      expect(ProviderPreferencesSchema.safeParse({ sort: by }).success).toBe(true);
      expect(ProviderPreferencesSchema.safeParse({ sort: { by, partition: 'model' } }).success).toBe(true);
    }
    expect(ProviderPreferencesSchema.safeParse({ sort: { by: null, partition: null } }).success).toBe(true);
  });
  it('max_price takes decimal strings only, and only the five known keys', () => {
    expect(check(withProvider({ max_price: { prompt: 1 } }))).toMatch(/^provider\.max_price\.prompt:/);
    expect(check(withProvider({ max_price: { prompt: '-1' } }))).toMatch(/^provider\.max_price\.prompt: expected a non-negative decimal/);
    expect(check(withProvider({ max_price: { video: '1' } }))).toMatch(/^provider\.max_price\.video: unknown property/);
  });
  it('latency and throughput preferences: a number or percentile cutoffs', () => {
    expect(check(withProvider({ preferred_max_latency: 2 }))).toBe('ok');
    expect(check(withProvider({ preferred_min_throughput: { p99: 10 } }))).toBe('ok');
    expect(check(withProvider({ preferred_max_latency: { p95: 2 } }))).toMatch(/^provider\.preferred_max_latency/);
    expect(check(withProvider({ preferred_max_latency: '2s' }))).toMatch(/^provider\.preferred_max_latency/);
  });
  it('options values are objects keyed by provider slug', () => {
    expect(check(withProvider({ options: { openai: 'fast' } }))).toMatch(/^provider\.options\.openai:/);
  });
  it('slug lists are arrays of strings or null', () => {
    expect(check(withProvider({ order: null, only: null, ignore: null }))).toBe('ok');
    expect(check(withProvider({ order: 'openai' }))).toMatch(/^provider\.order:/);
    expect(check(withProvider({ ignore: [3] }))).toMatch(/^provider\.ignore\[0\]:/);
  });
  it('booleans are booleans or null', () => {
    expect(check(withProvider({ zdr: 'yes' }))).toMatch(/^provider\.zdr:/);
    expect(check(withProvider({ allow_fallbacks: 1 }))).toMatch(/^provider\.allow_fallbacks:/);
    expect(check(withProvider({ require_parameters: null, enforce_distillable_text: null }))).toBe('ok');
  });
});
