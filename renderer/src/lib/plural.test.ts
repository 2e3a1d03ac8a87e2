import { describe, expect, it } from 'vitest';
import { counted } from './plural';

describe('counted', () => {
  it('says one endpoint, not "1 endpoints", and groups thousands', () => {
    expect(counted(1, 'endpoint')).toBe('1 endpoint');
    expect(counted(0, 'endpoint')).toBe('0 endpoints');
    expect(counted(2500, 'endpoint')).toBe('2,500 endpoints');
    expect(counted(1, 'query', 'queries')).toBe('1 query');
    expect(counted(3, 'query', 'queries')).toBe('3 queries');
  });
});
