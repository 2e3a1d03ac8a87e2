import { useEffect, useSyncExternalStore } from 'react';

/**
 * One polite live region for the whole app (WCAG 4.1.3, status messages): what finished in the
 * background, what was imported, where the review moved, and what went wrong. Each message is a new
 * line in a log, so a screen reader says each once, after what it is saying, and says the same
 * message again when it happens again.
 */
interface Message {
  id: number;
  text: string;
}

/** Lines kept in the region: the newest few, enough for messages that come together; older ones have been read. */
const KEPT = 5;

let messages: readonly Message[] = [];
let next = 1;
const listeners = new Set<() => void>();

export function announce(text: string): void {
  messages = [...messages.slice(1 - KEPT), { id: next++, text }];
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** Announces `text` whenever it changes to a non-empty value (and once when first shown). */
export function useAnnounce(text: string | null | undefined): void {
  useEffect(() => {
    if (text) announce(text);
  }, [text]);
}

/** The region itself, rendered once by the shell; visually hidden, since each message is also shown where it belongs. */
export function Announcer() {
  const shown = useSyncExternalStore(subscribe, () => messages);
  return (
    <div className="visually-hidden" role="log" aria-live="polite" aria-label="Announcements" data-testid="announcer">
      {shown.map((m) => (
        <p key={m.id}>{m.text}</p>
      ))}
    </div>
  );
}
