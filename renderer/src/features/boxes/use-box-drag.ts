import { useState, type PointerEvent, type RefObject } from 'react';
import type { TruthBox } from '../../../../shared/schemas/inspector';
import type { Show } from './BoxOverlay';
import { fromCorners, move, normalise, resize, toImage, MIN_SIDE, type Handle, type Point, type Size, type View } from './geometry';

type Drag =
  | { mode: 'create'; from: Point }
  | { mode: 'move'; index: number; from: Point; box: TruthBox }
  | { mode: 'resize'; index: number; handle: Handle }
  | { mode: 'pan'; last: Point };

/** Screen pixels within which a drawn edge snaps to the image's edge. */
const SNAP_PX = 6;

/**
 * The workbench's pointer: drag to draw a box, drag a box to move it, drag a handle to resize it,
 * the middle button or space+drag to pan. A drag changes a draft; letting go commits it (a box
 * drawn smaller than MIN_SIDE is dropped).
 */
export function useBoxDrag(a: {
  viewport: RefObject<HTMLDivElement | null>;
  v: View;
  image: Size;
  space: boolean;
  show: Show;
  /** The boxes as shown (the draft while dragging). */
  boxes: TruthBox[];
  /** The boxes as committed. */
  committed: TruthBox[];
  label: string | undefined;
  draft: TruthBox[] | null;
  setDraft: (draft: TruthBox[] | null) => void;
  select: (index: number | null) => void;
  commit: (next: TruthBox[]) => void;
  panBy: (dx: number, dy: number) => void;
}) {
  const [drag, setDrag] = useState<Drag | null>(null);
  const [cursor, setCursor] = useState<Point | null>(null);
  const { viewport, v, image, boxes } = a;

  /** The pointer in the viewport's padding box, where the image and the overlay are placed (its border is not part of it). */
  const screenPoint = (e: { clientX: number; clientY: number }): Point => {
    const el = viewport.current!;
    const r = el.getBoundingClientRect();
    return { x: e.clientX - r.left - el.clientLeft, y: e.clientY - r.top - el.clientTop };
  };
  /** The pointer in fractions of the image, not clamped. */
  const fraction = (s: Point): Point => {
    const p = toImage(v, s);
    return { x: p.x / image.width, y: p.y / image.height };
  };
  const snap = SNAP_PX / (v.scale * Math.min(image.width, image.height));

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    viewport.current!.focus({ preventScroll: true });
    viewport.current!.setPointerCapture?.(e.pointerId);
    const s = screenPoint(e);
    if (e.button === 1 || a.space) {
      e.preventDefault();
      setDrag({ mode: 'pan', last: s });
      return;
    }
    if (e.button !== 0) return;
    const target = e.target as SVGElement;
    const index = target.dataset['index'] !== undefined && a.show !== 'answer' ? Number(target.dataset['index']) : null;
    const p = fraction(s);
    if (index !== null && target.dataset['handle']) {
      a.select(index);
      setDrag({ mode: 'resize', index, handle: target.dataset['handle'] as Handle });
    } else if (index !== null) {
      a.select(index);
      setDrag({ mode: 'move', index, from: p, box: boxes[index]! });
    } else {
      setDrag({ mode: 'create', from: p });
      a.setDraft([...boxes, { ...fromCorners(p, p, snap), ...(a.label ? { label: a.label } : {}) }]);
      a.select(boxes.length);
    }
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const s = screenPoint(e);
    setCursor(s);
    if (!drag) return;
    if (drag.mode === 'pan') {
      a.panBy(s.x - drag.last.x, s.y - drag.last.y);
      setDrag({ mode: 'pan', last: s });
      return;
    }
    const p = fraction(s);
    const next = [...boxes];
    if (drag.mode === 'create') next[next.length - 1] = { ...next[next.length - 1]!, ...fromCorners(drag.from, p, snap) };
    if (drag.mode === 'move') next[drag.index] = { ...drag.box, ...move(drag.box, p.x - drag.from.x, p.y - drag.from.y) };
    if (drag.mode === 'resize') next[drag.index] = { ...boxes[drag.index]!, ...resize(boxes[drag.index]!, drag.handle, p, snap) };
    a.setDraft(next);
  };
  const onPointerUp = () => {
    if (drag && drag.mode !== 'pan' && a.draft) {
      const drawn = a.draft[a.draft.length - 1]!;
      const tooSmall = drag.mode === 'create' && (drawn.right - drawn.left < MIN_SIDE || drawn.bottom - drawn.top < MIN_SIDE);
      if (tooSmall) {
        a.setDraft(null);
        a.select(a.committed.length > 0 ? 0 : null);
      } else a.commit(a.draft.map((b) => ({ ...b, ...normalise(b) })));
    }
    setDrag(null);
  };
  return { panning: drag?.mode === 'pan', cursor, leave: () => setCursor(null), onPointerDown, onPointerMove, onPointerUp };
}
