import type { Box } from '../../../../shared/schemas/answer';
import type { TruthBox } from '../../../../shared/schemas/inspector';
import { iou } from '../../../../shared/geometry/iou';
import { HANDLES, handlePoint, toScreen, type Point, type Size, type View } from './geometry';
import { colourOf } from './palette';
import { insets, placeTags, TAG_HEIGHT, type Rect } from './tag-layout';

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
  /** Answers not drawn (hidden in the review list), by question. */
  hidden: ReadonlySet<string>;
  /** The question whose boxes are drawn stronger (the one under review). */
  focus: string | null;
}

/** Screen rectangle of a box given in fractions of the image. */
function rect(view: View, image: Size, b: Box): Rect {
  const a = toScreen(view, { x: b.left * image.width, y: b.top * image.height });
  const z = toScreen(view, { x: b.right * image.width, y: b.bottom * image.height });
  return { x: a.x, y: a.y, width: z.x - a.x, height: z.y - a.y };
}

const inset = (r: Rect, by: number): Rect => ({ x: r.x + by, y: r.y + by, width: Math.max(2, r.width - 2 * by), height: Math.max(2, r.height - 2 * by) });

/**
 * Boxes drawn in screen space over the zoomed image, so lines, handles and text keep their size at
 * any zoom: truth dashed, answers solid, both in their question's colour, with each answer's IoU
 * against the truth box of the same question. An answer that coincides with another is drawn
 * inside it, and every tag finds a place of its own (tag-layout.ts).
 */
export function BoxOverlay({ view, image, truth, answers, labels, selected, show, cursor, hidden, focus }: Props) {
  const shownAnswers = show !== 'truth' ? Object.entries(answers).filter(([label]) => !hidden.has(label)) : [];
  const shownTruth = show !== 'answer' ? truth.map((b, i) => ({ b, i })) : [];
  const answerRects = shownAnswers.map(([, b]) => rect(view, image, b));
  const answerInsets = insets(answerRects);
  const truthRects = shownTruth.map(({ b }) => rect(view, image, b));
  const answerText = shownAnswers.map(([label, b]) => {
    const t = truth.find((x) => (x.label ?? 'box') === label);
    return `${label} · ${t ? `IoU ${iou(t, b).toFixed(2)}` : 'no truth'}`;
  });
  const truthText = shownTruth.map(({ b }) => b.label ?? 'unlabelled');
  // Answers' tags first: they carry the IoU the reviewer reads.
  const spots = placeTags([
    ...answerRects.map((box, k) => ({ box: inset(box, answerInsets[k]!), text: answerText[k]! })),
    ...truthRects.map((box, k) => ({ box, text: truthText[k]! })),
  ]);
  return (
    <svg className="box-overlay" aria-hidden="true">
      {shownAnswers.map(([label], k) => {
        const r = inset(answerRects[k]!, answerInsets[k]!);
        const colour = colourOf(label, labels);
        const spot = spots[k]!;
        return (
          <g key={`a-${label}`} className={`answer${focus === label ? ' focused' : ''}`} data-label={label}>
            <rect className="answer-rect" {...r} stroke={colour} />
            <text className="box-tag" x={spot.x + 3} y={spot.y + TAG_HEIGHT - 3} fill={colour} data-tag={label}>
              {answerText[k]}
            </text>
          </g>
        );
      })}
      {shownTruth.map(({ b, i }, k) => {
        const r = truthRects[k]!;
        const colour = colourOf(b.label, labels);
        const spot = spots[shownAnswers.length + k]!;
        return (
          <g key={`t-${i}`} className={i === selected ? 'truth selected' : 'truth'}>
            <rect className="truth-rect" data-index={i} {...r} stroke={colour} fill={colour} />
            <text className="box-tag" x={spot.x + 3} y={spot.y + TAG_HEIGHT - 3} fill={colour}>
              {truthText[k]}
            </text>
            {i === selected
              ? HANDLES.map((h) => {
                  const p = handlePoint(b, h);
                  const s = toScreen(view, { x: p.x * image.width, y: p.y * image.height });
                  return (
                    <rect
                      key={h}
                      className={`handle handle-${h}`}
                      data-index={i}
                      data-handle={h}
                      x={s.x - 5}
                      y={s.y - 5}
                      width={10}
                      height={10}
                      stroke={colour}
                    />
                  );
                })
              : null}
          </g>
        );
      })}
      {cursor ? (
        <g className="crosshair">
          <line x1={0} x2="100%" y1={cursor.y} y2={cursor.y} />
          <line y1={0} y2="100%" x1={cursor.x} x2={cursor.x} />
        </g>
      ) : null}
    </svg>
  );
}
