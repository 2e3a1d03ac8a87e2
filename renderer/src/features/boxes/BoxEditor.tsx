import { useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import type { Box } from '../../../../shared/schemas/answer';

type Corner = 'tl' | 'tr' | 'bl' | 'br';
type Drag = { mode: 'create'; x0: number; y0: number } | { mode: 'move'; index: number; dx: number; dy: number } | { mode: 'resize'; index: number; corner: Corner };

const clamp = (v: number) => Math.min(1, Math.max(0, v));
const MIN = 0.01;

function normalise(b: Box): Box {
  return { top: clamp(Math.min(b.top, b.bottom)), bottom: clamp(Math.max(b.top, b.bottom)), left: clamp(Math.min(b.left, b.right)), right: clamp(Math.max(b.left, b.right)) };
}

/**
 * Ground-truth boxes over an image: drag on the image to draw, drag a box to move it, drag a
 * corner to resize. Keyboard: N new box, arrows move (Shift: more), Alt+arrows resize,
 * Delete removes, Tab-free: the selected box is the one last touched.
 */
export function BoxEditor({
  image,
  name,
  truth,
  answer,
  onChange,
}: {
  image: string;
  name: string;
  truth: Box[];
  answer: Box | null;
  onChange: (truth: Box[]) => void;
}) {
  const svg = useRef<SVGSVGElement>(null);
  const [draft, setDraft] = useState<Box[] | null>(null);
  const [selected, setSelected] = useState<number | null>(truth.length > 0 ? 0 : null);
  const [drag, setDrag] = useState<Drag | null>(null);
  const boxes = draft ?? truth;

  const point = (e: PointerEvent) => {
    const r = svg.current!.getBoundingClientRect();
    return { x: clamp((e.clientX - r.left) / r.width), y: clamp((e.clientY - r.top) / r.height) };
  };
  const commit = (next: Box[]) => {
    setDraft(null);
    onChange(next.map(normalise).filter((b) => b.right - b.left >= MIN && b.bottom - b.top >= MIN));
  };

  const onPointerDown = (e: PointerEvent<SVGSVGElement>) => {
    const target = e.target as SVGElement;
    const p = point(e);
    svg.current!.setPointerCapture(e.pointerId);
    const index = target.dataset['index'] !== undefined ? Number(target.dataset['index']) : null;
    if (index !== null && target.dataset['corner']) {
      setSelected(index);
      setDrag({ mode: 'resize', index, corner: target.dataset['corner'] as Corner });
    } else if (index !== null) {
      setSelected(index);
      setDrag({ mode: 'move', index, dx: p.x - boxes[index]!.left, dy: p.y - boxes[index]!.top });
    } else {
      setDrag({ mode: 'create', x0: p.x, y0: p.y });
      setDraft([...truth, { top: p.y, bottom: p.y, left: p.x, right: p.x }]);
      setSelected(truth.length);
    }
  };
  const onPointerMove = (e: PointerEvent<SVGSVGElement>) => {
    if (!drag) return;
    const p = point(e);
    const next = [...boxes];
    if (drag.mode === 'create') next[next.length - 1] = { top: Math.min(drag.y0, p.y), bottom: Math.max(drag.y0, p.y), left: Math.min(drag.x0, p.x), right: Math.max(drag.x0, p.x) };
    if (drag.mode === 'move') {
      const b = boxes[drag.index]!;
      const w = b.right - b.left;
      const h = b.bottom - b.top;
      const left = Math.min(1 - w, Math.max(0, p.x - drag.dx));
      const top = Math.min(1 - h, Math.max(0, p.y - drag.dy));
      next[drag.index] = { left, top, right: left + w, bottom: top + h };
    }
    if (drag.mode === 'resize') {
      const b = { ...boxes[drag.index]! };
      if (drag.corner.includes('t')) b.top = p.y;
      if (drag.corner.includes('b')) b.bottom = p.y;
      if (drag.corner.includes('l')) b.left = p.x;
      if (drag.corner.includes('r')) b.right = p.x;
      next[drag.index] = b;
    }
    setDraft(next);
  };
  const onPointerUp = () => {
    if (drag && draft) commit(draft);
    setDrag(null);
  };

  const onKeyDown = (e: KeyboardEvent) => {
    const step = e.shiftKey ? 0.05 : 0.01;
    const arrows: Record<string, [number, number]> = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
    if (e.key === 'n' || e.key === 'N') {
      e.preventDefault();
      commit([...truth, { top: 0.35, bottom: 0.65, left: 0.35, right: 0.65 }]);
      setSelected(truth.length);
    } else if ((e.key === 'Delete' || e.key === 'Backspace') && selected !== null && truth[selected]) {
      e.preventDefault();
      commit(truth.filter((_, i) => i !== selected));
      setSelected(truth.length > 1 ? 0 : null);
    } else if (arrows[e.key] && selected !== null && truth[selected]) {
      e.preventDefault();
      const [dx, dy] = arrows[e.key]!;
      const b = truth[selected]!;
      const moved = e.altKey
        ? { ...b, right: Math.max(b.left + MIN, clamp(b.right + dx)), bottom: Math.max(b.top + MIN, clamp(b.bottom + dy)) }
        : (() => {
            const left = Math.min(1 - (b.right - b.left), Math.max(0, b.left + dx));
            const top = Math.min(1 - (b.bottom - b.top), Math.max(0, b.top + dy));
            return { left, top, right: left + (b.right - b.left), bottom: top + (b.bottom - b.top) };
          })();
      commit(truth.map((x, i) => (i === selected ? moved : x)));
    }
  };

  // Drawn in a 1000 x 1000 space stretched over the image: fractions times 1000.
  const u = (v: number) => v * 1000;
  return (
    <div
      className="box-editor"
      tabIndex={0}
      role="application"
      aria-label={`Ground truth for ${name}: drag to draw; N adds a box, arrows move it, Alt+arrows resize, Delete removes`}
      onKeyDown={onKeyDown}
    >
      <div className="box-stage">
        <img src={image} alt={name} draggable={false} />
        <svg ref={svg} className="box-editor-svg" viewBox="0 0 1000 1000" preserveAspectRatio="none" onPointerDown={onPointerDown} onPointerMove={onPointerMove} onPointerUp={onPointerUp} data-testid="box-canvas">
          {answer ? <rect className="answer-box" vectorEffect="non-scaling-stroke" x={u(answer.left)} y={u(answer.top)} width={u(answer.right - answer.left)} height={u(answer.bottom - answer.top)} /> : null}
          {boxes.map((b, i) => (
            <g key={i} className={i === selected ? 'truth selected' : 'truth'}>
              <rect className="truth-box" vectorEffect="non-scaling-stroke" data-index={i} x={u(b.left)} y={u(b.top)} width={u(b.right - b.left)} height={u(b.bottom - b.top)} />
              {(['tl', 'tr', 'bl', 'br'] as const).map((c) => (
                <rect key={c} className="handle" data-index={i} data-corner={c} x={u(c.includes('l') ? b.left : b.right) - 8} y={u(c.includes('t') ? b.top : b.bottom) - 8} width="16" height="16" />
              ))}
            </g>
          ))}
        </svg>
      </div>
      <p className="muted small">
        {truth.length} ground-truth box{truth.length === 1 ? '' : 'es'} · <span className="legend-truth">dashed green</span>: ground truth ·{' '}
        <span className="legend-answer">orange</span>: the model's answer
      </p>
    </div>
  );
}
