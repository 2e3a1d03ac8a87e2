import { describe, expect, it } from 'vitest';
import { formatUsd } from './format-usd';

describe('formatUsd', () => {
  it('shows small amounts with three significant digits rather than rounding them to zero', () => {
    expect(formatUsd(0.0000086)).toBe('$0.00000860');
    expect(formatUsd(0.00002091)).toBe('$0.0000209');
    expect(formatUsd(0.5)).toBe('$0.500');
    expect(formatUsd(0.042)).toBe('$0.0420');
  });

  it('shows cents from a dollar up, nothing at all as $0, and an impossible figure as unknown', () => {
    expect(formatUsd(1.25)).toBe('$1.25');
    expect(formatUsd(123.456)).toBe('$123.46');
    expect(formatUsd(0)).toBe('$0');
    expect(formatUsd(-0.25)).toBe('-$0.250');
    expect(formatUsd(Number.NaN)).toBe('unknown');
  });
});

describe('formatUsd in sentences', () => {
  it('drops the zeros a column would keep, and says nothing as $0', () => {
    expect(formatUsd(0.055, { trimZeros: true })).toBe('$0.055');
    expect(formatUsd(0.05, { trimZeros: true })).toBe('$0.05');
    expect(formatUsd(4.2, { trimZeros: true })).toBe('$4.2');
    expect(formatUsd(0.0000086, { trimZeros: true })).toBe('$0.0000086');
    expect(formatUsd(0, { trimZeros: true })).toBe('$0');
  });
});
