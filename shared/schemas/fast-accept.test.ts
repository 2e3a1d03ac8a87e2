import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DecisionsRequestSchema } from './decisions-request';
import { DecisionsResponseSchema } from './decisions-response';
import { isPlainDecisionsRequest, isPlainDecisionsResponse } from './fast-accept';

/** Sometimes the valid value, sometimes anything at all: near-misses are where a guard would go wrong. */
const loose = <T>(valid: fc.Arbitrary<T>) => fc.oneof({ weight: 12, arbitrary: valid }, { weight: 1, arbitrary: fc.anything() as fc.Arbitrary<unknown> });
/** Mostly valid, now and then one of a few invalid values. */
const mostly = <T>(valid: fc.Arbitrary<T>, ...invalid: T[]) =>
  fc.oneof({ weight: 12, arbitrary: valid }, { weight: 1, arbitrary: fc.constantFrom(...invalid) });
/** A record that may carry one extra key the schema does not know (zod strips or refuses it). */
const withExtra = <T extends object>(record: fc.Arbitrary<T>) =>
  fc
    .tuple(
      record,
      fc.oneof(
        { weight: 15, arbitrary: fc.constant(null) },
        { weight: 1, arbitrary: fc.tuple(fc.constantFrom('extra', 'Type', '__proto__', 'constructor'), fc.anything()) },
      ),
    )
    .map(([r, extra]) => {
      if (!extra) return r;
      const copy = JSON.parse(JSON.stringify(r)) as Record<string, unknown>;
      Object.defineProperty(copy, extra[0], { value: extra[1], enumerable: true, configurable: true, writable: true });
      return copy;
    });
/** Optional fields: absent, or (one time in `every`) present, possibly malformed. */
const optionalField = <T>(key: string, value: fc.Arbitrary<T>, every = 2) =>
  fc.oneof({ weight: every - 1, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: value.map((v) => ({ [key]: v })) });

/** What the guards ever see: JSON.parse output (HTTP bodies) or its structured clone (IPC). */
const asJson = <T>(a: fc.Arbitrary<T>): fc.Arbitrary<unknown> => a.map((v) => (v === undefined ? undefined : (JSON.parse(JSON.stringify(v)) as unknown)));
const text = fc.string({ maxLength: 8 });
const guidance = fc.oneof(text, fc.dictionary(text, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }), fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }));

const question = fc.oneof(
  fc.record({ type: fc.constant('noul'), instructions: loose(guidance) }, { requiredKeys: ['type', 'instructions'] }).chain((q) =>
    optionalField('criteria', loose(withExtra(fc.record({ true: loose(guidance), false: loose(guidance) }, { requiredKeys: [] })))).map((c) => ({
      ...q,
      ...c,
    })),
  ),
  fc.record({
    type: fc.constant('choice'),
    instructions: loose(guidance),
    criteria: loose(fc.dictionary(text, fc.option(guidance, { nil: null }), { minKeys: 1, maxKeys: 3 })),
  }),
  fc.record({ type: fc.constant('score'), instructions: loose(guidance), criteria: loose(fc.array(loose(guidance), { minLength: 1, maxLength: 3 })) }),
  fc.record({ type: mostly(fc.constant('box'), 'boxes'), instructions: loose(guidance) }),
);

const request = asJson(
  withExtra(
    fc
      .record({
        model: loose(mostly(fc.string({ minLength: 1, maxLength: 6 }), '')),
        state: loose(guidance),
        questions: loose(fc.dictionary(mostly(fc.string({ minLength: 1, maxLength: 6 }), ''), withExtra(question), { minKeys: 1, maxKeys: 3 })),
      })
      .chain((r) =>
        fc
          .tuple(
            optionalField('session_id', loose(mostly(fc.string({ maxLength: 20 }), 's'.repeat(257)))),
            optionalField('user', loose(mostly(fc.string({ maxLength: 20 }), 'u'.repeat(257)))),
            optionalField('provider', fc.record({ sort: fc.constantFrom('price', 'latency') }), 8),
            optionalField('trace', fc.record({ trace_id: text }), 8),
          )
          .map((parts) => Object.assign({}, r, ...parts) as Record<string, unknown>),
      ),
  ),
);

const probability = mostly(fc.double({ min: 0, max: 1, noNaN: true }), -0.1, 1.5, Number.NaN);
const answer = fc.oneof(
  fc.record({ type: fc.constant('noul'), noul: probability }),
  fc.record(
    { type: fc.constant('choice'), choice: loose(text), confidence: probability, probabilities: loose(fc.dictionary(text, probability, { maxKeys: 3 })) },
    { requiredKeys: ['type', 'choice'] },
  ),
  fc.record(
    {
      type: fc.constant('score'),
      score: mostly(fc.double({ min: 0, max: 10, noNaN: true }), -1, Number.POSITIVE_INFINITY),
      confidence: probability,
      probabilities: loose(fc.dictionary(fc.oneof(fc.stringMatching(/^\d{1,2}$/), text), probability, { maxKeys: 3 })),
      legend: loose(fc.dictionary(fc.stringMatching(/^\d{1,2}$/), guidance, { maxKeys: 2 })),
    },
    { requiredKeys: ['type', 'score'] },
  ),
  fc.record(
    {
      type: fc.constant('box'),
      box: loose(withExtra(fc.record({ top: probability, bottom: probability, left: probability, right: probability }))),
      confidence: probability,
    },
    { requiredKeys: ['type', 'box'] },
  ),
);
const count = mostly(fc.nat({ max: 1_000_000 }), -1, 1.5, 2 ** 60);
const response = asJson(
  withExtra(
    fc.record(
      {
        answers: loose(fc.dictionary(fc.string({ maxLength: 4 }), withExtra(answer), { maxKeys: 3 })),
        model: loose(text),
        id: loose(text),
        provider: loose(text),
        usage: loose(
          withExtra(
            fc.record(
              { input_tokens: count, output_tokens: count, cost: fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.constant(-1)) },
              { requiredKeys: ['input_tokens', 'output_tokens'] },
            ),
          ),
        ),
      },
      { requiredKeys: ['answers', 'model', 'usage'] },
    ),
  ),
);

describe('fast acceptance agrees with the schemas', () => {
  // One property for both directions over the same inputs: each direction still sees 3,000 of them.
  it('a request the guard accepts, zod accepts unchanged; a plainly valid one (no routing preferences, no trace) the guard accepts', () => {
    let accepted = 0;
    fc.assert(
      fc.property(request, (r) => {
        if (isPlainDecisionsRequest(r)) {
          accepted += 1;
          const parsed = DecisionsRequestSchema.safeParse(r);
          expect(parsed.success).toBe(true);
          expect(parsed.data).toStrictEqual(r);
        }
        if (typeof r !== 'object' || r === null || 'provider' in r || 'trace' in r) return;
        if (
          DecisionsRequestSchema.safeParse(r).success &&
          JSON.stringify(DecisionsRequestSchema.parse(r)) === JSON.stringify(r) &&
          !JSON.stringify(r).includes('__proto__')
        ) {
          expect(isPlainDecisionsRequest(r)).toBe(true);
        }
      }),
      { numRuns: 3000 },
    );
    // The generator reaches the accepting side often enough for the property to mean something.
    expect(accepted).toBeGreaterThan(100);
  });

  it('a response the guard accepts, zod accepts unchanged; plainly valid ones are accepted', () => {
    let accepted = 0;
    fc.assert(
      fc.property(response, (r) => {
        const parsed = DecisionsResponseSchema.safeParse(r);
        if (isPlainDecisionsResponse(r)) {
          accepted += 1;
          expect(parsed.success).toBe(true);
          expect(parsed.data).toStrictEqual(r);
        } else if (parsed.success && JSON.stringify(parsed.data) === JSON.stringify(r) && !JSON.stringify(r).includes('__proto__')) {
          expect.fail(`a plainly valid response was not accepted: ${JSON.stringify(r)}`);
        }
      }),
      { numRuns: 3000 },
    );
    expect(accepted).toBeGreaterThan(100);
  });

  it('values JSON.parse can give that an object copy would change go to zod', () => {
    const request = JSON.parse('{"model":"a/b","state":{"__proto__":{"x":1}},"questions":{"q":{"type":"noul","instructions":"?"}}}') as unknown;
    expect(isPlainDecisionsRequest(request)).toBe(false);
    const response = JSON.parse('{"model":"m","answers":{"__proto__":{"type":"noul","noul":0.5}},"usage":{"input_tokens":1,"output_tokens":1}}') as unknown;
    expect(isPlainDecisionsResponse(response)).toBe(false);
  });
});
