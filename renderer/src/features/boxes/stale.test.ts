import { describe, expect, it } from 'vitest';
import { staleAdvice, staleLabel, staleShort, verdictOwner } from './stale';

describe('stale verdicts in words', () => {
  it('tell a re-run with the same answer from one with another, and say which key confirms', () => {
    expect(staleLabel('rerun_unchanged')).toBe('re-run since verdict (answer unchanged)');
    expect(staleLabel('rerun_changed')).toBe('re-run since verdict (answer changed)');
    expect(staleLabel('truth_changed')).toBe('truth edited since verdict');
    // In a narrow queue row what differs comes first.
    expect(staleShort('rerun_unchanged')).toBe('re-run: answer unchanged');
    expect(staleShort('rerun_changed')).toBe('re-run: answer changed');
    expect(staleAdvice({ verdict: 'rejected', stale_reason: 'rerun_unchanged' })).toMatch(
      /^Re-run since verdict \(answer unchanged\): rejected .* Press R to confirm it\.$/,
    );
    expect(staleAdvice({ verdict: 'accepted', stale_reason: 'rerun_changed' })).toMatch(/^Re-run since verdict \(answer changed\): accepted .*other boxes/);
    expect(staleAdvice({ verdict: 'accepted', stale_reason: 'answers_differ' })).toMatch(/^Accepted on other answers/);
  });

  it('name the key chosen in Settings, or the button when that key is off', () => {
    expect(staleAdvice({ verdict: 'accepted', stale_reason: 'rerun_unchanged' }, 'Y')).toMatch(/ Press Y to confirm it\.$/);
    expect(staleAdvice({ verdict: 'rejected', stale_reason: 'rerun_unchanged' }, null)).toMatch(/ Reject it again to confirm it\.$/);
  });

  it('name the model a verdict is on, or say it is not known', () => {
    expect(verdictOwner({ verdict: 'accepted', verdict_model: 'acme/one' })).toBe('acme/one');
    expect(verdictOwner({ verdict: 'rejected', verdict_model: null })).toBe('model unknown');
    expect(verdictOwner({ verdict: null, verdict_model: null })).toBeNull();
  });
});
