/**
 * Single-key shortcuts (WCAG 2.1.4): what each does, the keys it answers to, and the settings that
 * turn them off or change their keys, as Label Studio's hotkey settings do. Keys with Ctrl, Alt or
 * Cmd, and those that act only while a widget has focus (the box canvas, a grid), are not single-key
 * shortcuts in that sense and are listed apart.
 */

export type ShortcutId = 'help' | 'accept' | 'reject' | 'clear' | 'next' | 'previous' | 'runImage';

export interface Shortcut {
  id: ShortcutId;
  /** What it does, as a person would say it. */
  does: string;
  /** What Shift with the key does instead, if anything. */
  withShift?: string;
  where: 'Everywhere' | 'Boxes';
  defaults: readonly string[];
}

export const SHORTCUTS: readonly Shortcut[] = [
  { id: 'help', does: 'Show the keyboard shortcuts', where: 'Everywhere', defaults: ['?'] },
  { id: 'accept', does: 'Accept the answer under review', withShift: 'the whole image', where: 'Boxes', defaults: ['a'] },
  { id: 'reject', does: 'Reject the answer under review', withShift: 'the whole image', where: 'Boxes', defaults: ['r'] },
  { id: 'clear', does: 'Clear the verdict of the answer under review', withShift: 'the whole image', where: 'Boxes', defaults: ['c'] },
  { id: 'next', does: 'Next image', where: 'Boxes', defaults: ['j', ']'] },
  { id: 'previous', does: 'Previous image', where: 'Boxes', defaults: ['k', '['] },
  { id: 'runImage', does: 'Run on this image', withShift: 'on every model of the run', where: 'Boxes', defaults: ['g'] },
];

export interface ShortcutSettings {
  /** All single-key shortcuts on or off at once. */
  enabled: boolean;
  /** 1–9 choose the label of the next box drawn (Boxes). */
  labelDigits: boolean;
  /** Keys chosen instead of the defaults; an empty list turns that shortcut off. */
  keys: Partial<Record<ShortcutId, string[]>>;
}

export const DEFAULT_SETTINGS: ShortcutSettings = { enabled: true, labelDigits: true, keys: {} };

export function keysOf(settings: ShortcutSettings, id: ShortcutId): readonly string[] {
  return settings.keys[id] ?? SHORTCUTS.find((s) => s.id === id)!.defaults;
}

/** A key as it is printed on the keyboard: letters in capitals. */
export const keyLabel = (key: string): string => (/^[a-z]$/.test(key) ? key.toUpperCase() : key);

/** One printable character; digits choose labels, and space pans the canvas. */
const ALLOWED = /^[a-z`~!@#$%^&*()\-_=+[\]{};:'",.<>/?\\|]$/;

/**
 * The keys typed for a shortcut, separated by spaces ("j ]"): each one character, not a digit or a
 * space, no key twice. An empty text is no key: the shortcut is off.
 */
export function parseKeys(text: string): { keys: string[] } | { problem: string } {
  const keys = text
    .split(/\s+/)
    .filter((k) => k !== '')
    .map((k) => (k.length === 1 ? k.toLowerCase() : k));
  const bad = keys.find((k) => !ALLOWED.test(k));
  if (bad !== undefined)
    return { problem: /^\d$/.test(bad) ? `${bad}: digits choose box labels` : `“${bad}” is not one key: type one letter or sign per key, separated by spaces` };
  const twice = keys.find((k, i) => keys.indexOf(k) !== i);
  if (twice !== undefined) return { problem: `${keyLabel(twice)} is given twice` };
  return { keys };
}

/** The other shortcut already answering to one of `keys`, if any. */
export function clash(settings: ShortcutSettings, id: ShortcutId, keys: readonly string[]): { key: string; with: Shortcut } | null {
  for (const other of SHORTCUTS) {
    if (other.id === id) continue;
    const key = keysOf(settings, other.id).find((k) => keys.includes(k));
    if (key !== undefined) return { key, with: other };
  }
  return null;
}

export interface KeyPress {
  key: string;
  code: string;
  shiftKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
}

export type Action = { id: ShortcutId; shift: boolean } | { id: 'label'; digit: number };

/** What a key press does under these settings, or null (a modifier held, shortcuts off, a key nothing answers to). */
export function actionFor(settings: ShortcutSettings, press: KeyPress): Action | null {
  if (!settings.enabled || press.ctrlKey || press.metaKey || press.altKey) return null;
  const digit = /^Digit([1-9])$/.exec(press.code)?.[1];
  if (digit && !press.shiftKey) return settings.labelDigits ? { id: 'label', digit: Number(digit) } : null;
  if (press.key.length !== 1) return null;
  const key = press.key.toLowerCase();
  const found = SHORTCUTS.find((s) => keysOf(settings, s.id).includes(key));
  // Shift is the key's own for a sign typed with it (?), a choice only with a letter.
  return found ? { id: found.id, shift: press.shiftKey && /^[a-z]$/.test(key) } : null;
}

/** The settings as stored, with anything unreadable or out of date taken from the defaults. */
export function readSettings(stored: unknown): ShortcutSettings {
  if (!stored || typeof stored !== 'object') return DEFAULT_SETTINGS;
  const s = stored as Partial<ShortcutSettings>;
  const keys: ShortcutSettings['keys'] = {};
  for (const shortcut of SHORTCUTS) {
    const k = s.keys?.[shortcut.id];
    if (Array.isArray(k) && k.every((x) => typeof x === 'string' && ALLOWED.test(x))) keys[shortcut.id] = k;
  }
  return { enabled: s.enabled !== false, labelDigits: s.labelDigits !== false, keys };
}
