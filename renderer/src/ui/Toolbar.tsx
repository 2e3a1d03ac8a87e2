import { useLayoutEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { nextIndex } from './keyboard-nav';

/** The toolbar's controls the arrow keys move between: its enabled buttons (fields keep their own arrows). */
const ITEMS = 'button:not(:disabled)';

/**
 * A toolbar as the WAI-ARIA Authoring Practices build one: a single Tab stop (the control last
 * used, else the first), Left and Right (Home, End) moving between its buttons. Buttons may come
 * and go (Pause becomes Resume): the stop moves to one that is there.
 */
export function Toolbar({ label, className = 'toolbar', children }: { label: string; className?: string; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const last = useRef<HTMLElement | null>(null);
  const items = () => [...(ref.current?.querySelectorAll<HTMLElement>(ITEMS) ?? [])];
  useLayoutEffect(() => {
    const all = items();
    const stop = last.current && all.includes(last.current) ? last.current : all[0];
    for (const item of all) item.tabIndex = item === stop ? 0 : -1;
  });
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const all = items();
    const at = all.indexOf(e.target as HTMLElement);
    if (at < 0) return;
    const next = nextIndex(e.key, at, all.length);
    if (next === null) return;
    e.preventDefault();
    all[at]!.tabIndex = -1;
    all[next]!.tabIndex = 0;
    all[next]!.focus();
  };
  return (
    <div
      ref={ref}
      role="toolbar"
      aria-label={label}
      className={className}
      onKeyDown={onKeyDown}
      onFocus={(e) => {
        if ((e.target as HTMLElement).matches(ITEMS)) last.current = e.target as HTMLElement;
      }}
    >
      {children}
    </div>
  );
}
