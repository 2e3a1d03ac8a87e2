import { useLayoutEffect, useRef, type ReactNode } from 'react';

/**
 * A bar kept at the bottom of the window as the page scrolls (a form's Save and Run). The page's
 * scroll padding is kept at its height, so a control Tab moves to is scrolled above the bar, never
 * under it (WCAG 2.4.7, and 2.4.11 of 2.2); at 200% zoom the bar wraps and grows, and so does the room.
 */
export function StickyBar({ className, children }: { className: string; children: ReactNode }) {
  const bar = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const el = bar.current;
    const root = document.documentElement;
    if (!el) return;
    const measure = () => root.style.setProperty('--sticky-bottom', `${el.offsetHeight}px`);
    measure();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    observer?.observe(el);
    return () => {
      observer?.disconnect();
      root.style.removeProperty('--sticky-bottom');
    };
  }, []);
  return (
    <div ref={bar} className={className}>
      {children}
    </div>
  );
}
