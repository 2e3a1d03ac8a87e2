import { describe, expect, it } from 'vitest';
import { isAppUrl } from './app-url';

describe('isAppUrl', () => {
  it('accepts the app renderer', () => {
    expect(isAppUrl('app://verdict/index.html')).toBe(true);
    expect(isAppUrl('app://verdict/assets/index.js?x=1#/settings')).toBe(true);
  });
  it('refuses everything else', () => {
    for (const url of [
      'app://evil/index.html',
      'https://verdict/index.html',
      'app://verdict.example/index.html',
      'app://user@verdict/',
      'file:///index.html',
      'not a url',
      'null',
    ]) {
      expect(isAppUrl(url), url).toBe(false);
    }
  });
});
