// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { keepCompareWith, keepTried, moveTried, readCompareWith, readTried } from './try-store';

afterEach(() => localStorage.clear());

describe('what the Try-it grid keeps', () => {
  it('keeps the runs it started per set, and forgets them when there are none', () => {
    keepTried('set-1', { 'own|sandbox/baseline-text': 'run-1' });
    expect(readTried('set-1')).toEqual({ 'own|sandbox/baseline-text': 'run-1' });
    expect(readTried('set-2')).toEqual({});
    expect(readTried(undefined)).toEqual({});
    keepTried('set-1', {});
    expect(localStorage.getItem('verdict:tried:set-1')).toBeNull();
  });

  it('gives a new set, once saved, the runs tried before its save', () => {
    keepTried(undefined, { 'own|m': 'run-9' });
    moveTried('set-3');
    expect(readTried('set-3')).toEqual({ 'own|m': 'run-9' });
    expect(readTried(undefined)).toEqual({});
  });

  it('keeps the other models it runs on', () => {
    expect(readCompareWith()).toEqual([]);
    keepCompareWith(['sandbox/sharp-large', 'sandbox/cheap-mini']);
    expect(readCompareWith()).toEqual(['sandbox/sharp-large', 'sandbox/cheap-mini']);
  });

  it('reads what is not its own shape, or not JSON, as nothing kept', () => {
    localStorage.setItem('verdict:compare-with', '{"a": 1}');
    expect(readCompareWith()).toEqual([]);
    localStorage.setItem('verdict:tried:set-1', 'not json');
    expect(readTried('set-1')).toEqual({});
  });
});
