import { MAX_TEMPERATURE, type CalibrationSummary } from '../../../../shared/schemas/evaluation';

/** A fitted temperature in words; one at the end of the range tried says so, as it is a bound, not a fit. */
export function temperatureText(t: number, digits = 2): string {
  return t >= MAX_TEMPERATURE * (1 - 1e-9) ? `T=${t.toFixed(digits)}, the largest tried: the probabilities tell little` : `T=${t.toFixed(digits)}`;
}

/** A warning when the fit makes a held-out figure worse, or null: saving it would not help there. */
export function calibrationWarning(c: CalibrationSummary): string | null {
  const worse: string[] = [];
  if (c.ece_before !== null && c.ece_after !== null && c.ece_after > c.ece_before) worse.push('ECE');
  if (c.log_loss_before !== null && c.log_loss_after !== null && c.log_loss_after > c.log_loss_before) worse.push('log loss');
  return worse.length ? `${worse.join(' and ')} on the odd items ${worse.length > 1 ? 'are' : 'is'} worse after this fit than before.` : null;
}
