import { useSyncExternalStore } from 'react';
import { readSettings, type ShortcutSettings } from './shortcuts';

/**
 * The shortcut settings of this browser or desktop app (kept in local storage, like the sidebar's
 * state and the Boxes screen's choices): read by every screen, changed in Settings, and followed at
 * once by a screen already open.
 */
const KEY = 'verdict.shortcuts';

const load = (): ShortcutSettings => {
  try {
    return readSettings(JSON.parse(localStorage.getItem(KEY) ?? 'null'));
  } catch {
    return readSettings(null);
  }
};

let current: ShortcutSettings | null = null;
const listeners = new Set<() => void>();
const snapshot = () => (current ??= load());

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  // Another window of the app changed them.
  const onStorage = (e: StorageEvent) => {
    if (e.key !== KEY) return;
    current = load();
    listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
};

export function saveShortcutSettings(next: ShortcutSettings): void {
  current = next;
  localStorage.setItem(KEY, JSON.stringify(next));
  for (const listener of listeners) listener();
}

export function useShortcutSettings(): ShortcutSettings {
  return useSyncExternalStore(subscribe, snapshot);
}

/** The settings now, for a key handler that reads them when a key is pressed. */
export const shortcutSettings = snapshot;

/** Whether a key press goes to a field being typed in (where a single key is text, never a shortcut). */
export const isTyping = (t: EventTarget | null): boolean =>
  t instanceof HTMLElement && (t.matches('input, textarea, select, [contenteditable="true"]') || t.isContentEditable);
