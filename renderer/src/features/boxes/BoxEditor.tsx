import { useCallback, useRef, useState, type KeyboardEvent } from 'react';
import type { Box } from '../../../../shared/schemas/answer';
import type { TruthBox } from '../../../../shared/schemas/inspector';
import { BoxOverlay, type Show } from './BoxOverlay';
import { normalise, toImage, type Size, type View } from './geometry';
import { push, redo, start, undo, type History } from './history';
import { BoxTools } from './BoxTools';
import { TruthList } from './TruthList';
import { boxKey, ZOOM_STEP } from './box-keys';
import { useBoxDrag } from './use-box-drag';
import './boxes.css';
import { useWorkbenchView } from './use-workbench-view';

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
/** The workbench's state: its boxes with their history and draft, the selection, the view, the pointer and the keys. */
function useBoxEditor({ size, truth, nextLabel, onChange }: Pick<Props, 'size' | 'truth' | 'nextLabel' | 'onChange'>) {
  const viewport = useRef<HTMLDivElement>(null);
  const [natural, setNatural] = useState<Size | null>(size);
  const [history, setHistory] = useState<History<TruthBox[]>>(() => start(truth));
  const [draft, setDraft] = useState<TruthBox[] | null>(null);
  const [selected, setSelected] = useState<number | null>(truth.length > 0 ? 0 : null);
  const [space, setSpace] = useState(false);
  const [show, setShow] = useState<Show>('both');
  const boxes = draft ?? history.present;
  const dims = natural ?? { width: 1, height: 1 };
  const view = useWorkbenchView(viewport, natural);

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
  const pointer = useBoxDrag({
    viewport,
    v: view.v,
    image: dims,
    space,
    show,
    boxes,
    committed: history.present,
    label: nextLabel,
    draft,
    setDraft,
    select: setSelected,
    commit,
    panBy: view.panBy,
  });
  const onKeyDown = (e: KeyboardEvent) => {
    const handled = boxKey(e, {
      boxes: history.present,
      selected,
      label: nextLabel,
      select: setSelected,
      commit,
      undo: () => travel(undo),
      redo: () => travel(redo),
      holdSpace: () => setSpace(true),
      panBy: view.panBy,
      zoomBy: view.zoomBy,
      fit: () => view.fitTo(dims),
      actual: view.actual,
    });
    if (handled) e.preventDefault();
  };
  return {
    viewport,
    natural,
    setNatural,
    history,
    selected,
    setSelected,
    space,
    setSpace,
    show,
    setShow,
    boxes,
    dims,
    view,
    commit,
    travel,
    pointer,
    onKeyDown,
  };
}

export function BoxEditor(props: Props) {
  const { image, name, answers, labels, onNextLabel, hidden, focus } = props;
  const editor = useBoxEditor(props);
  const { natural, history, selected, setSelected, show, setShow, boxes, dims, view, commit, travel, pointer } = editor;
  const v = view.v;
  const label = props.nextLabel;
  const cursor = pointer.cursor;
  const readout = cursor && natural ? toImage(v, cursor) : null;
  const inside = readout && readout.x >= 0 && readout.y >= 0 && readout.x <= dims.width && readout.y <= dims.height;
  const shownLabels = [...labels, ...boxes.map((b) => b.label).filter((l): l is string => !!l && !labels.includes(l))];
  return (
    <div className="box-workbench">
      <BoxTools
        zoom={v.scale}
        onZoom={(how) =>
          how === 'out' ? view.zoomBy(1 / ZOOM_STEP) : how === 'in' ? view.zoomBy(ZOOM_STEP) : how === 'fit' ? view.fitTo(dims) : view.actual()
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
      <BoxViewport editor={editor} image={image} name={name} answers={answers} labels={shownLabels} hidden={hidden} focus={focus} />
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

/** The drawing surface: the image and the boxes over it, with the pointer and the keys. */
function BoxViewport({
  editor,
  image,
  name,
  answers,
  labels,
  hidden,
  focus,
}: Pick<Props, 'image' | 'name' | 'answers' | 'hidden' | 'focus'> & { editor: ReturnType<typeof useBoxEditor>; labels: string[] }) {
  const { viewport, natural, setNatural, selected, space, setSpace, show, boxes, dims, view, pointer, onKeyDown } = editor;
  const v = view.v;
  return (
    <div
      ref={viewport}
      className={`box-viewport${space || pointer.panning ? ' panning' : ''}`}
      tabIndex={0}
      role="application"
      aria-label={`Ground truth for ${name}: drag to draw; N adds a box, B selects the next one, arrows move it, Alt+arrows resize, Delete removes, Ctrl+Z undoes; + and − zoom, 0 fits`}
      data-testid="box-canvas"
      onPointerDown={pointer.onPointerDown}
      onPointerMove={pointer.onPointerMove}
      onPointerUp={pointer.onPointerUp}
      onPointerLeave={pointer.leave}
      onKeyDown={onKeyDown}
      onKeyUp={(e) => e.key === ' ' && setSpace(false)}
      onBlur={() => setSpace(false)}
    >
      <WorkbenchImage image={image} name={name} size={dims} view={v} shown={view.view !== null} onSize={(loaded) => natural ?? setNatural(loaded)} />
      {view.view ? (
        <BoxOverlay
          view={v}
          image={dims}
          truth={boxes}
          answers={answers}
          labels={labels}
          selected={selected}
          show={show}
          cursor={pointer.cursor}
          hidden={hidden}
          focus={focus}
        />
      ) : null}
    </div>
  );
}

/** The image under the boxes, placed and scaled by the view; hidden until it is fitted. Reports its size once loaded. */
function WorkbenchImage({
  image,
  name,
  size,
  view,
  shown,
  onSize,
}: {
  image: string;
  name: string;
  size: Size;
  view: View;
  shown: boolean;
  onSize: (size: Size) => void;
}) {
  return (
    <img
      src={image}
      alt={name}
      draggable={false}
      data-testid="box-image"
      className="box-image"
      style={{
        width: size.width,
        height: size.height,
        transform: `translate(${view.x}px, ${view.y}px) scale(${view.scale})`,
        visibility: shown ? 'visible' : 'hidden',
      }}
      onLoad={(e) => onSize({ width: e.currentTarget.naturalWidth, height: e.currentTarget.naturalHeight })}
    />
  );
}
