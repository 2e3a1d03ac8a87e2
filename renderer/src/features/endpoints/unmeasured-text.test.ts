import { describe, expect, it } from 'vitest';
import { unmeasuredText } from './unmeasured-text';

describe('unmeasuredText', () => {
  it('says where a row’s figures come from when measuring it now failed', () => {
    expect(unmeasuredText('HTTP 429', true)).toBe('Measuring now failed (HTTP 429); the figures in this row come from requests of the last 30 minutes.');
    expect(unmeasuredText('HTTP 429', false)).toBe('Could not be measured: HTTP 429');
  });
});
