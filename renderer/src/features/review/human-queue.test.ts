import { describe, expect, it } from 'vitest';
import { ageText } from './HumanQueue';

describe("the human queue's oldest age", () => {
  it('is said in seconds, minutes or hours, and unknown when none waits', () => {
    expect(ageText(40)).toBe('40 s');
    expect(ageText(12 * 60 + 20)).toBe('12 min');
    expect(ageText(3.5 * 3600)).toBe('3.5 h');
    expect(ageText(null)).toBe('—');
  });
});
