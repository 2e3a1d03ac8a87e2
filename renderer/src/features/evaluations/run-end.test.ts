import { describe, expect, it } from 'vitest';
import { runEndText } from './run-end';

const run = { name: 'tickets', status: 'done' as const, done: 80, total: 80, failed: 0, spent_usd: 0.0123, message: null };

describe('what is said when a run ends', () => {
  it('says how it ended, how far it got and what it cost', () => {
    expect(runEndText(run)).toMatch(/^Run “tickets” finished: 80 of 80 done, \$0\.01\d* spent\.$/);
  });

  it('counts the failures only when there are some, and adds the run’s own message', () => {
    expect(runEndText({ ...run, failed: 3 })).toContain('80 of 80 done, 3 failed,');
    const stopped = runEndText({ ...run, status: 'budget', done: 12, message: 'Budget reached: $0.50 spent.' });
    expect(stopped).toMatch(/^Run “tickets” stopped at its budget: 12 of 80 done, .* Budget reached: \$0\.50 spent\.$/);
    expect(runEndText({ ...run, status: 'cancelled', done: 5 })).toMatch(/^Run “tickets” was cancelled: 5 of 80 done/);
  });
});
