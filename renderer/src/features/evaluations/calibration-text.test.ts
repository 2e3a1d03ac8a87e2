import { describe, expect, it } from 'vitest';
import { MAX_TEMPERATURE } from '../../../../shared/schemas/evaluation';
import { calibrationWarning, temperatureText } from './calibration-text';

describe('calibration text', () => {
  it('says when the temperature is the end of the range tried', () => {
    expect(temperatureText(1.134)).toBe('T=1.13');
    expect(temperatureText(MAX_TEMPERATURE)).toBe('T=20.00, the largest tried: the probabilities tell little');
    expect(temperatureText(MAX_TEMPERATURE, 3)).toMatch(/^T=20\.000, the largest tried/);
  });

  it('warns when a held-out figure is worse after the fit', () => {
    const base = { temperature: 2.6, ece_before: 0.26, ece_after: 0.32, log_loss_before: 0.7, log_loss_after: 0.61 };
    expect(calibrationWarning(base)).toBe('ECE on the odd items is worse after this fit than before.');
    expect(calibrationWarning({ ...base, log_loss_after: 0.8 })).toBe('ECE and log loss on the odd items are worse after this fit than before.');
    expect(calibrationWarning({ ...base, ece_after: 0.2 })).toBeNull();
    expect(calibrationWarning({ ...base, ece_after: null })).toBeNull();
  });
});
