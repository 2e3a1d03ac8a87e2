import { describe, expect, it } from 'vitest';
import { OperationError } from '../../transport/transport';
import { EMPTY_DRAFT, RULE_DEFAULTS, fieldProblems, ruleInput } from './capture-form';

describe('ruleInput', () => {
  it('leaves out what is left empty, so that the schema decides (and says) the defaults', () => {
    expect(RULE_DEFAULTS).toMatchObject({ sample_rate: 1, daily_cap: 1000, retention_days: 30, keep_images: false });
    expect(ruleInput({ ...EMPTY_DRAFT, name: 'late parcels' })).toEqual({ input: { name: 'late parcels', keep_images: false } });
  });

  it('reads the percent as a rate, the models as a list and the condition as JSON', () => {
    const draft = { ...EMPTY_DRAFT, name: 'r', keyIds: ['k1'], models: ' a/b, ,c/d ', when: '{"confidenceBelow": 0.6}', samplePercent: '25', dailyCap: '10' };
    expect(ruleInput(draft)).toEqual({
      input: { name: 'r', key_ids: ['k1'], models: ['a/b', 'c/d'], when: { confidenceBelow: 0.6 }, sample_rate: 0.25, daily_cap: 10, keep_images: false },
    });
  });

  it('names the condition when its JSON does not parse', () => {
    const result = ruleInput({ ...EMPTY_DRAFT, name: 'r', when: '{confidenceBelow: 0.6}' });
    expect(result).toEqual({ problems: { when: expect.stringMatching(/^when: not valid JSON/) } });
  });
});

describe('fieldProblems', () => {
  it("puts each of the schema's problems beside the field its path names", () => {
    const error = new OperationError({
      code: 400,
      message: 'Invalid input for captures.create: when.confidenceBelow: must be at most 1; sample_rate: sample_rate must be at most 1',
      metadata: {
        problems: [
          { path: 'when.confidenceBelow', message: 'must be at most 1' },
          { path: 'sample_rate', message: 'sample_rate must be at most 1' },
        ],
      },
    });
    expect(fieldProblems(error)).toEqual({ when: 'when.confidenceBelow: must be at most 1', sample_rate: 'sample_rate: sample_rate must be at most 1' });
  });

  it("splits the core's own refusal by the field each part starts with", () => {
    const error = new OperationError({ code: 400, message: 'capture rule: key_ids[0]: no API key with id "x"; models[0]: no model "m" is served here' });
    expect(fieldProblems(error)).toEqual({ key_ids: 'key_ids[0]: no API key with id "x"', models: 'models[0]: no model "m" is served here' });
    expect(fieldProblems(new Error('At most 50 capture rules: remove one first'))).toEqual({});
  });
});
