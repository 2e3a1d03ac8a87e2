import { useEffect, useLayoutEffect, useState, type RefObject } from 'react';
import { actualSize, fit, pan, wheelFactor, zoomAt, type Size, type View } from './geometry';

/**
 * The workbench's view of its image: the viewport's size (measured, and again when it changes), the
 * image fitted once its size is known, the wheel zooming about the pointer, and the zoom and pan steps
 * the tools and keys ask for.
 */
export function useWorkbenchView(viewport: RefObject<HTMLDivElement | null>, natural: Size | null) {
  const [box, setBox] = useState<Size>({ width: 0, height: 0 });
  const [view, setView] = useState<View | null>(null);

  useLayoutEffect(() => {
    const el = viewport.current!;
    const measure = () => setBox({ width: el.clientWidth || 640, height: el.clientHeight || 480 });
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [viewport]);
  useEffect(() => {
    if (natural && box.width > 0 && !view) setView(fit(natural, box));
  }, [natural, box, view]);
  // The wheel zooms about the pointer. React's wheel listeners are passive, which would let the page
  // scroll at the same time; this one is not, so the page stays where it is.
  useEffect(() => {
    const el = viewport.current!;
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      const r = el.getBoundingClientRect();
      setView((current) =>
        current ? zoomAt(current, wheelFactor(e.deltaY), { x: e.clientX - r.left - el.clientLeft, y: e.clientY - r.top - el.clientTop }) : current,
      );
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, [viewport]);

  const v = view ?? { scale: 1, x: 0, y: 0 };
  const centre = { x: box.width / 2, y: box.height / 2 };
  return {
    /** The viewport's size. */
    box,
    /** The view once the image is fitted; null before. */
    view,
    /** The view to draw with (the identity before the image is fitted). */
    v,
    zoomBy: (factor: number) => setView(zoomAt(v, factor, centre)),
    panBy: (dx: number, dy: number) => setView(pan(v, dx, dy)),
    fitTo: (image: Size) => setView(fit(image, box)),
    actual: () => setView(actualSize(v, centre)),
  };
}
