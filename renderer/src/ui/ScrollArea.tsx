import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';

/** Whether the element's content is wider or taller than its box, followed as either changes size. */
function useOverflows(ref: React.RefObject<HTMLElement | null>): boolean {
  const [overflows, setOverflows] = useState(false);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => setOverflows(el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    for (const child of el.children) observer.observe(child);
    return () => observer.disconnect();
  }, [ref]);
  return overflows;
}

/**
 * A box whose content may scroll (a wide table at 1024 pixels or at 200% zoom). While it does, it is
 * a named region in the Tab order, so the keyboard can scroll it too (WCAG 2.1.1); while it does
 * not, it is a plain box and costs no Tab stop.
 */
export function ScrollArea({ label, className = 'table-scroll', children }: { label: string; className?: string; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const overflows = useOverflows(ref);
  return (
    <div ref={ref} className={className} {...(overflows ? { role: 'region', 'aria-label': label, tabIndex: 0 } : {})}>
      {children}
    </div>
  );
}
