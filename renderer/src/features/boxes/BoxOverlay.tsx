import type { Box } from '../../../../shared/schemas/answer';
import type { TruthBox } from '../../../../shared/schemas/inspector';
import { iou } from '../../../../shared/geometry/iou';
import { HANDLES, handlePoint, toScreen, type Point, type Size, type View } from './geometry';
import { colourOf } from './palette';

export type Show = 'both' | 'truth' | 'answer';

interface Props {
  view: View;
  image: Size;
  truth: TruthBox[];
  answers: Record<string, Box>;
  labels: readonly string[];
  selected: number | null;
  show: Show;
  cursor: Point | null;
}

/** Screen rectangle of a box given in fractions of the image. */
function rect(view: View, image: Size, b: Box) {
  const a = toScreen(view, { x: b.left * image.width, y: b.top * image.height });
  const z = toScreen(view, { x: b.right * image.width, y: b.bottom * image.height });
  return { x: a.x, y: a.y, width: z.x - a.x, height: z.y - a.y };
}

/**
 * Boxes drawn in screen space over the zoomed image, so lines, handles and text keep their size at
 * any zoom: truth dashed, answers solid, both in their question's colour, with each answer's IoU
 * against the truth box of the same question.
 */
export function BoxOverlay({ view, image, truth, answers, labels, selected, show, cursor }: Props) {
  const showTruth = show !== 'answer';
  const showAnswer = show !== 'truth';
  return (
    <svg className="box-overlay" aria-hidden="true">
      {showAnswer
        ? Object.entries(answers).map(([label, b], k) => {
            const r = rect(view, image, b);
            const t = truth.find((x) => (x.label ?? 'box') === label);
            const score = t ? iou(t, b) : null;
            const colour = colourOf(label, labels);
            return (
              <g key={`a-${label}`} className="answer" data-label={label}>
                <rect className="answer-rect" {...r} stroke={colour} />
                {/* Tags stack upwards from the box's bottom edge, so answers that coincide stay readable. */}
                <text className="box-tag" x={r.x + 4} y={r.y + r.height - 6 - 16 * k} fill={colour}>
                  {label}
                  {score === null ? ' · no truth' : ` · IoU ${score.toFixed(2)}`}
                </text>
              </g>
            );
          })
        : null}
      {showTruth
        ? truth.map((b, i) => {
            const r = rect(view, image, b);
            const colour = colourOf(b.label, labels);
            return (
              <g key={`t-${i}`} className={i === selected ? 'truth selected' : 'truth'}>
                <rect className="truth-rect" data-index={i} {...r} stroke={colour} fill={colour} />
                <text className="box-tag" x={r.x + 4} y={r.y - 5} fill={colour}>
                  {b.label ?? 'unlabelled'}
                </text>
                {i === selected
                  ? HANDLES.map((h) => {
                      const p = handlePoint(b, h);
                      const s = toScreen(view, { x: p.x * image.width, y: p.y * image.height });
                      return <rect key={h} className={`handle handle-${h}`} data-index={i} data-handle={h} x={s.x - 5} y={s.y - 5} width={10} height={10} stroke={colour} />;
                    })
                  : null}
              </g>
            );
          })
        : null}
      {cursor ? (
        <g className="crosshair">
          <line x1={0} x2="100%" y1={cursor.y} y2={cursor.y} />
          <line y1={0} y2="100%" x1={cursor.x} x2={cursor.x} />
        </g>
      ) : null}
    </svg>
  );
}
