import { describe, expect, it } from 'vitest';
import type { CascadePreset } from '../../../../shared/schemas/cascade-preset';
import { presetVariant, variantsOf } from './run-variants';

const when = { question: 'topic', confidenceBelow: 0.62 };
const preset = (first_model: string | null): CascadePreset => ({
  name: 'topic-unsure',
  model: 'sandbox/sharp-large',
  first_model,
  when,
  source: null,
  created_at: '',
  updated_at: '',
});

describe("the run form's variants", () => {
  it('makes a preset that names its first model a cascade variant of that model, labelled with its name', () => {
    expect(presetVariant(preset('sandbox/cheap-mini'), 'other/model')).toEqual({
      model: 'sandbox/cheap-mini',
      label: 'topic-unsure',
      cascade: { model: 'sandbox/sharp-large', when },
    });
  });

  it('needs a first model chosen for a preset that names none', () => {
    expect(presetVariant(preset(null), undefined)).toBeNull();
    expect(presetVariant(preset(null), 'sandbox/skewed-small')).toMatchObject({ model: 'sandbox/skewed-small', cascade: { model: 'sandbox/sharp-large' } });
  });

  it('puts cascades after the plain models, and a run of cascades alone needs no plain model', () => {
    const cascade = presetVariant(preset('a'), undefined)!;
    expect(variantsOf(['x', 'y'], '', [cascade])).toEqual([{ model: 'x' }, { model: 'y' }, cascade]);
    expect(variantsOf([], '', [cascade])).toEqual([cascade]);
  });

  it('refuses preference lines beside a cascade: they compare one plain model', () => {
    const cascade = presetVariant(preset('a'), undefined)!;
    expect(() => variantsOf(['x'], '{"sort": "price"}', [cascade])).toThrow(/no cascade preset/);
    expect(variantsOf(['x'], '{"sort": "price"}')).toEqual([{ model: 'x', label: 'preferences 1', provider: { sort: 'price' } }]);
  });
});
