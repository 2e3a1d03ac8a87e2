import { describe, expect, it } from 'vitest';
import { actionFor, clash, DEFAULT_SETTINGS, keysOf, parseKeys, readSettings, type KeyPress, type ShortcutSettings } from './shortcuts';

const press = (key: string, more: Partial<KeyPress> = {}): KeyPress => ({
  key,
  code: /^\d$/.test(key) ? `Digit${key}` : `Key${key.toUpperCase()}`,
  shiftKey: false,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  ...more,
});

describe('single-key shortcuts', () => {
  it('answer to their default keys, Shift widening a verdict to the whole image', () => {
    expect(actionFor(DEFAULT_SETTINGS, press('a'))).toEqual({ id: 'accept', shift: false });
    expect(actionFor(DEFAULT_SETTINGS, press('A', { shiftKey: true }))).toEqual({ id: 'accept', shift: true });
    expect(actionFor(DEFAULT_SETTINGS, press(']'))).toEqual({ id: 'next', shift: false });
    // ? is typed with Shift: that Shift is the key's own.
    expect(actionFor(DEFAULT_SETTINGS, press('?', { shiftKey: true, code: 'Slash' }))).toEqual({ id: 'help', shift: false });
    expect(actionFor(DEFAULT_SETTINGS, press('3'))).toEqual({ id: 'label', digit: 3 });
  });

  it('leave keys with Ctrl, Alt or Cmd, and keys nothing answers to, alone', () => {
    expect(actionFor(DEFAULT_SETTINGS, press('a', { ctrlKey: true }))).toBeNull();
    expect(actionFor(DEFAULT_SETTINGS, press('a', { altKey: true }))).toBeNull();
    expect(actionFor(DEFAULT_SETTINGS, press('a', { metaKey: true }))).toBeNull();
    expect(actionFor(DEFAULT_SETTINGS, press('x'))).toBeNull();
    expect(actionFor(DEFAULT_SETTINGS, press('Enter', { code: 'Enter' }))).toBeNull();
  });

  it('all stop when turned off, and the label digits stop on their own', () => {
    const off: ShortcutSettings = { ...DEFAULT_SETTINGS, enabled: false };
    for (const key of ['a', 'r', 'j', '?', '1']) expect(actionFor(off, press(key))).toBeNull();
    const noDigits: ShortcutSettings = { ...DEFAULT_SETTINGS, labelDigits: false };
    expect(actionFor(noDigits, press('1'))).toBeNull();
    expect(actionFor(noDigits, press('a'))).toEqual({ id: 'accept', shift: false });
  });

  it('answer to the keys chosen instead of their defaults, and to none when given none', () => {
    const remapped: ShortcutSettings = { ...DEFAULT_SETTINGS, keys: { accept: ['y'], next: [] } };
    expect(actionFor(remapped, press('y'))).toEqual({ id: 'accept', shift: false });
    expect(actionFor(remapped, press('a'))).toBeNull();
    expect(actionFor(remapped, press('j'))).toBeNull();
    expect(keysOf(remapped, 'previous')).toEqual(['k', '[']);
  });
});

describe('keys typed in Settings', () => {
  it('are one character each, separated by spaces, letters in either case', () => {
    expect(parseKeys('J ]')).toEqual({ keys: ['j', ']'] });
    expect(parseKeys('  ')).toEqual({ keys: [] });
    expect(parseKeys('ab')).toEqual({ problem: expect.stringContaining('“ab” is not one key') });
    expect(parseKeys('5')).toEqual({ problem: '5: digits choose box labels' });
    expect(parseKeys('j J')).toEqual({ problem: 'J is given twice' });
  });

  it('may not take a key another shortcut answers to', () => {
    expect(clash(DEFAULT_SETTINGS, 'accept', ['r'])?.with.id).toBe('reject');
    expect(clash(DEFAULT_SETTINGS, 'accept', ['y'])).toBeNull();
    // Its own keys are no clash.
    expect(clash(DEFAULT_SETTINGS, 'next', ['j'])).toBeNull();
  });

  it('are read back from storage, anything unreadable left at its default', () => {
    expect(readSettings(null)).toEqual(DEFAULT_SETTINGS);
    expect(readSettings({ enabled: false, keys: { accept: ['y'], reject: ['too long'], bogus: ['x'] } })).toEqual({
      enabled: false,
      labelDigits: true,
      keys: { accept: ['y'] },
    });
  });
});
