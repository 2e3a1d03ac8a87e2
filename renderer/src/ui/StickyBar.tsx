import { useLayoutEffect, useRef, type ReactNode } from 'react';

/**
 * A bar kept at the bottom of the window as the page scrolls (a form's Save and Run). The page's
 * scroll padding is kept at its height, so a control Tab moves to is scrolled above the bar, never
 * under it (WCAG 2.4.7, and 2.4.11 of 2.2); at 200% zoom the bar wraps and grows, and so does the room.
 * A control already partly in view is not scrolled by the browser: that one is moved above the bar here.
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
    // The browser scrolls a control to focus only when it is out of view: one partly under the bar
    // (its top above it) stayed there. It is moved up above the bar, its top kept in the window.
    const uncover = (event: FocusEvent) => {
      const target = event.target as HTMLElement | null;
      if (!target || el.contains(target) || !(target instanceof HTMLElement)) return;
      const box = target.getBoundingClientRect();
      const room = window.innerHeight - el.offsetHeight;
      if (box.bottom > room && box.top < room) window.scrollBy(0, Math.min(box.bottom - room, box.top));
    };
    document.addEventListener('focusin', uncover);
    return () => {
      document.removeEventListener('focusin', uncover);
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
