import { useCallback, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import type { Box } from '../../../../shared/schemas/answer';
import type { TruthBox } from '../../../../shared/schemas/inspector';
import { BoxOverlay, type Show } from './BoxOverlay';
import {
  actualSize,
  fit,
  fromCorners,
  move,
  normalise,
  pan,
  resize,
  toImage,
  wheelFactor,
  zoomAt,
  MIN_SIDE,
  type Handle,
  type Point,
  type Size,
  type View,
} from './geometry';
import { push, redo, start, undo, type History } from './history';
import { BoxTools } from './BoxTools';
import { TruthList } from './TruthList';

type Drag =
  | { mode: 'create'; from: Point }
  | { mode: 'move'; index: number; from: Point; box: TruthBox }
  | { mode: 'resize'; index: number; handle: Handle }
  | { mode: 'pan'; last: Point };

/** Screen pixels within which a drawn edge snaps to the image's edge. */
const SNAP_PX = 6;
const ZOOM_STEP = 1.25;

interface Props {
  image: string;
  name: string;
  /** The image's size in pixels when known; otherwise read from the image once it loads. */
  size: Size | null;
  truth: TruthBox[];
  answers: Record<string, Box>;
  /** The box questions, in legend order. */
  labels: readonly string[];
  /** The label the next box drawn (or added with N) gets: a tool setting, never the selected box's label. */
  nextLabel: string | undefined;
  onNextLabel: (label: string | undefined) => void;
  /** Answers hidden from the image, by question. */
  hidden: ReadonlySet<string>;
  /** The question under review, drawn stronger. */
  focus: string | null;
  onChange: (truth: TruthBox[]) => void;
}

/**
 * A zoomable workbench for ground-truth boxes. Mouse: drag to draw, drag a box to move it, drag a
 * handle to resize, wheel to zoom, space+drag or the middle button to pan. Keyboard: N new box,
 * arrows move it (Shift: more), Alt+arrows resize, Delete removes, B selects the next box (Shift+B
 * the previous), Escape deselects, arrows pan when
 * nothing is selected, + and − zoom, 0 fits, Shift+1 shows 100 %, Ctrl+Z undoes, Ctrl+Shift+Z or Ctrl+Y redoes;
 * 1–9 choose the next box's label (the screen listens for them). The ground-truth list relabels or
 * removes one box; the label of the next box never changes a box already drawn.
 */
export function BoxEditor({ image, name, size, truth, answers, labels, nextLabel, onNextLabel, hidden, focus, onChange }: Props) {
  const viewport = useRef<HTMLDivElement>(null);
  const [natural, setNatural] = useState<Size | null>(size);
  const [box, setBox] = useState<Size>({ width: 0, height: 0 });
  const [view, setView] = useState<View | null>(null);
  const [history, setHistory] = useState<History<TruthBox[]>>(() => start(truth));
  const [draft, setDraft] = useState<TruthBox[] | null>(null);
  const [selected, setSelected] = useState<number | null>(truth.length > 0 ? 0 : null);
  const [drag, setDrag] = useState<Drag | null>(null);
  const [cursor, setCursor] = useState<Point | null>(null);
  const [space, setSpace] = useState(false);
  const [show, setShow] = useState<Show>('both');
  const label = nextLabel;
  const boxes = draft ?? history.present;
  const dims = natural ?? { width: 1, height: 1 };

  useLayoutEffect(() => {
    const el = viewport.current!;
    const measure = () => setBox({ width: el.clientWidth || 640, height: el.clientHeight || 480 });
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
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
  }, []);

  const commit = useCallback(
    (next: TruthBox[]) => {
      setDraft(null);
      setHistory((h) => push(h, next));
      onChange(next);
    },
    [onChange],
  );
  const travel = (step: typeof undo) => {
    const next = step(history);
    if (next === history) return;
    setHistory(next);
    setSelected(next.present.length > 0 ? Math.min(selected ?? 0, next.present.length - 1) : null);
    onChange(next.present);
  };

  const v = view ?? { scale: 1, x: 0, y: 0 };
  /** The pointer in the viewport's padding box, where the image and the overlay are placed (its border is not part of it). */
  const screenPoint = (e: { clientX: number; clientY: number }): Point => {
    const el = viewport.current!;
    const r = el.getBoundingClientRect();
    return { x: e.clientX - r.left - el.clientLeft, y: e.clientY - r.top - el.clientTop };
  };
  /** The pointer in fractions of the image, not clamped. */
  const fraction = (s: Point): Point => {
    const p = toImage(v, s);
    return { x: p.x / dims.width, y: p.y / dims.height };
  };
  const snap = SNAP_PX / (v.scale * Math.min(dims.width, dims.height));

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    viewport.current!.focus({ preventScroll: true });
    viewport.current!.setPointerCapture?.(e.pointerId);
    const s = screenPoint(e);
    if (e.button === 1 || space) {
      e.preventDefault();
      setDrag({ mode: 'pan', last: s });
      return;
    }
    if (e.button !== 0) return;
    const target = e.target as SVGElement;
    const index = target.dataset['index'] !== undefined && show !== 'answer' ? Number(target.dataset['index']) : null;
    const p = fraction(s);
    if (index !== null && target.dataset['handle']) {
      setSelected(index);
      setDrag({ mode: 'resize', index, handle: target.dataset['handle'] as Handle });
    } else if (index !== null) {
      setSelected(index);
      setDrag({ mode: 'move', index, from: p, box: boxes[index]! });
    } else {
      setDrag({ mode: 'create', from: p });
      setDraft([...boxes, { ...fromCorners(p, p, snap), ...(label ? { label } : {}) }]);
      setSelected(boxes.length);
    }
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const s = screenPoint(e);
    setCursor(s);
    if (!drag) return;
    if (drag.mode === 'pan') {
      setView(pan(v, s.x - drag.last.x, s.y - drag.last.y));
      setDrag({ mode: 'pan', last: s });
      return;
    }
    const p = fraction(s);
    const next = [...boxes];
    if (drag.mode === 'create') next[next.length - 1] = { ...next[next.length - 1]!, ...fromCorners(drag.from, p, snap) };
    if (drag.mode === 'move') next[drag.index] = { ...drag.box, ...move(drag.box, p.x - drag.from.x, p.y - drag.from.y) };
    if (drag.mode === 'resize') next[drag.index] = { ...boxes[drag.index]!, ...resize(boxes[drag.index]!, drag.handle, p, snap) };
    setDraft(next);
  };
  const onPointerUp = () => {
    if (drag && drag.mode !== 'pan' && draft) {
      const drawn = draft[draft.length - 1]!;
      const tooSmall = drag.mode === 'create' && (drawn.right - drawn.left < MIN_SIDE || drawn.bottom - drawn.top < MIN_SIDE);
      if (tooSmall) {
        setDraft(null);
        setSelected(history.present.length > 0 ? 0 : null);
      } else commit(draft.map((b) => ({ ...b, ...normalise(b) })));
    }
    setDrag(null);
  };

  const zoomBy = (factor: number) => setView(zoomAt(v, factor, { x: box.width / 2, y: box.height / 2 }));

  const onKeyDown = (e: KeyboardEvent) => {
    const mod = e.ctrlKey || e.metaKey;
    const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    const current = history.present;
    const chosen = selected !== null ? current[selected] : undefined;
    const step = e.shiftKey ? 0.05 : 0.01;
    const arrows: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    let handled = true;
    if (mod && (key === 'y' || (key === 'z' && e.shiftKey))) travel(redo);
    else if (mod && key === 'z') travel(undo);
    else if (mod) handled = false;
    else if (key === ' ') setSpace(true);
    else if (key === 'n') {
      commit([...current, { top: 0.35, bottom: 0.65, left: 0.35, right: 0.65, ...(label ? { label } : {}) }]);
      setSelected(current.length);
    } else if ((key === 'Delete' || key === 'Backspace') && chosen) {
      commit(current.filter((_, i) => i !== selected));
      setSelected(current.length > 1 ? 0 : null);
    } else if (key === 'Escape') setSelected(null);
    else if (key === 'b' && current.length > 0) setSelected(((selected ?? (e.shiftKey ? 0 : -1)) + (e.shiftKey ? current.length - 1 : 1)) % current.length);
    else if (arrows[key] && chosen) {
      const [dx, dy] = arrows[key]!;
      const moved = e.altKey
        ? normalise({ ...chosen, right: chosen.right + dx * step, bottom: chosen.bottom + dy * step })
        : move(chosen, dx * step, dy * step);
      commit(current.map((b, i) => (i === selected ? { ...b, ...moved } : b)));
    } else if (arrows[key]) setView(pan(v, -arrows[key]![0] * 40 * (e.shiftKey ? 4 : 1), -arrows[key]![1] * 40 * (e.shiftKey ? 4 : 1)));
    else if (key === '+' || key === '=') zoomBy(ZOOM_STEP);
    else if (key === '-' || key === '_') zoomBy(1 / ZOOM_STEP);
    else if (key === '0') setView(fit(dims, box));
    // Shift+1: the digits alone choose labels.
    else if (e.code === 'Digit1' && e.shiftKey) setView(actualSize(v, { x: box.width / 2, y: box.height / 2 }));
    else handled = false;
    if (handled) e.preventDefault();
  };

  const readout = cursor && natural ? toImage(v, cursor) : null;
  const inside = readout && readout.x >= 0 && readout.y >= 0 && readout.x <= dims.width && readout.y <= dims.height;
  const shownLabels = [...labels, ...boxes.map((b) => b.label).filter((l): l is string => !!l && !labels.includes(l))];
  return (
    <div className="box-workbench">
      <BoxTools
        zoom={v.scale}
        onZoom={(how) =>
          how === 'out'
            ? zoomBy(1 / ZOOM_STEP)
            : how === 'in'
              ? zoomBy(ZOOM_STEP)
              : how === 'fit'
                ? setView(fit(dims, box))
                : setView(actualSize(v, { x: box.width / 2, y: box.height / 2 }))
        }
        canUndo={history.past.length > 0}
        canRedo={history.future.length > 0}
        onUndo={() => travel(undo)}
        onRedo={() => travel(redo)}
        canDelete={selected !== null && history.present[selected] !== undefined}
        onDelete={() => selected !== null && (commit(history.present.filter((_, i) => i !== selected)), setSelected(null))}
        show={show}
        onShow={setShow}
        label={label}
        labels={shownLabels}
        onLabel={onNextLabel}
        readout={inside ? `x ${Math.floor(readout.x)}, y ${Math.floor(readout.y)} px` : natural ? `${natural.width} × ${natural.height} px` : ''}
      />
      <div
        ref={viewport}
        className={`box-viewport${space || drag?.mode === 'pan' ? ' panning' : ''}`}
        tabIndex={0}
        role="application"
        aria-label={`Ground truth for ${name}: drag to draw; N adds a box, B selects the next one, arrows move it, Alt+arrows resize, Delete removes, Ctrl+Z undoes; + and − zoom, 0 fits`}
        data-testid="box-canvas"
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerLeave={() => setCursor(null)}
        onKeyDown={onKeyDown}
        onKeyUp={(e) => e.key === ' ' && setSpace(false)}
        onBlur={() => setSpace(false)}
      >
        <img
          src={image}
          alt={name}
          draggable={false}
          data-testid="box-image"
          className="box-image"
          style={{
            width: dims.width,
            height: dims.height,
            transform: `translate(${v.x}px, ${v.y}px) scale(${v.scale})`,
            visibility: view ? 'visible' : 'hidden',
          }}
          onLoad={(e) => natural ?? setNatural({ width: e.currentTarget.naturalWidth, height: e.currentTarget.naturalHeight })}
        />
        {view ? (
          <BoxOverlay
            view={v}
            image={dims}
            truth={boxes}
            answers={answers}
            labels={shownLabels}
            selected={selected}
            show={show}
            cursor={cursor}
            hidden={hidden}
            focus={focus}
          />
        ) : null}
      </div>
      <TruthList
        boxes={history.present}
        image={natural}
        labels={shownLabels}
        selected={selected}
        onSelect={setSelected}
        onRelabel={(i, next) => commit(history.present.map((b, k) => (k === i ? { ...normalise(b), ...(next ? { label: next } : {}) } : b)))}
        onRemove={(i) => {
          commit(history.present.filter((_, k) => k !== i));
          setSelected(null);
        }}
      />
    </div>
  );
}
