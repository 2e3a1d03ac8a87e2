import { describe, expect, it } from 'vitest';
import { storeBackends } from '../../test-support/store-backends';
import { evaluationPorts } from '../../test-support/eval-store-fixtures';

/** Saved calibrations' storage contract, on both backends. */
const backends = storeBackends(evaluationPorts);

describe.each(backends)('CalibrationStorage on %s', (_name, backend) => {
  it('keeps one calibration per set, model and question, the latest; lists them newest first or of one set and model by question', async () => {
    const { a, b, close } = await backend.open();
    try {
      const c = (question: string, temperature: number, created_at: string, model = 'openai/gpt-5') => ({
        set_key: 'set-1',
        model,
        question,
        temperature,
        created_at,
      });
      await a.calibrations.saveCalibration(c('urgent', 1.5, '2026-01-01T00:00:00.000Z'));
      await a.calibrations.saveCalibration(c('category', 0.75, '2026-01-02T00:00:00.000Z'));
      await a.calibrations.saveCalibration(c('urgent', 2.25, '2026-01-03T00:00:00.000Z'));
      await a.calibrations.saveCalibration(c('urgent', 1, '2026-01-04T00:00:00.000Z', 'groq/llama'));
      expect(await b.calibrations.calibrations()).toEqual([
        c('urgent', 1, '2026-01-04T00:00:00.000Z', 'groq/llama'),
        c('urgent', 2.25, '2026-01-03T00:00:00.000Z'),
        c('category', 0.75, '2026-01-02T00:00:00.000Z'),
      ]);
      expect(await b.calibrations.calibrations({ set_key: 'set-1', model: 'openai/gpt-5' })).toEqual([
        c('category', 0.75, '2026-01-02T00:00:00.000Z'),
        c('urgent', 2.25, '2026-01-03T00:00:00.000Z'),
      ]);
      expect(await b.calibrations.deleteCalibration({ set_key: 'set-1', model: 'openai/gpt-5', question: 'urgent' })).toBe(1);
      expect(await b.calibrations.deleteCalibration({ set_key: 'set-1', model: 'openai/gpt-5', question: 'urgent' })).toBe(0);
      expect((await a.calibrations.calibrations()).map((x) => x.question)).toEqual(['urgent', 'category']);
    } finally {
      await close();
    }
  });
});
