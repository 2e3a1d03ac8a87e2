import { useEffect, useState, type ReactNode } from 'react';

/** Rows rendered beyond the view on each side, so a fast scroll rarely shows an empty edge. */
const OVERSCAN = 10;

/**
 * A list that renders only the rows in view (plus a margin), so 100,000 rows cost what 30 do.
 * `renderRow` gets each visible index, the row's top in pixels and the React key to give it.
 *
 * - `layout="flow"` (default): rows stack in a window moved to the first one; a row may grow (one
 *   being edited) and push the next ones down.
 * - `layout="placed"`: each row is placed at its own top (the caller puts `top` on a row of fixed
 *   height `rowHeight`, positioned absolutely). Rows that stay in view never move, so scrolling lays
 *   out and paints only the rows that enter, which is what keeps a long matrix within a frame.
 *
 * It renders again only when the first row in view changes, and rows that stay in view are left
 * alone when `renderRow` returns memoised components.
 *
 * `pinned` (placed layout) is a row kept rendered wherever the list is scrolled (under a key of its
 * own while it is outside the rows around the view): the row holding a grid's Tab stop, which Tab
 * must still find after the wheel has scrolled it far away.
 *
 * `tabbable` puts the list itself in the Tab order, so keys scroll it; a grid whose cells take focus
 * does not need it.
 */
export function VirtualRows({
  count,
  rowHeight,
  height,
  renderRow,
  label,
  onRange,
  layout = 'flow',
  pinned = null,
  tabbable = true,
}: {
  count: number;
  rowHeight: number;
  height: number;
  renderRow: (index: number, top: number, key: string) => ReactNode;
  label: string;
  onRange?: (first: number, last: number) => void;
  layout?: 'flow' | 'placed';
  pinned?: number | null;
  tabbable?: boolean;
}) {
  const [topRow, setTopRow] = useState(0);
  const first = Math.max(0, topRow - OVERSCAN);
  const last = Math.min(count, topRow + Math.ceil(height / rowHeight) + OVERSCAN);
  useEffect(() => onRange?.(first, last), [first, last, onRange]);
  const slots = Math.ceil(height / rowHeight) + 2 * OVERSCAN;
  const rows: ReactNode[] = [];
  if (layout === 'placed') {
    // In slot order: a row leaving one edge becomes the row entering the other, updated in place,
    // never moved or re-created (their order in the DOM does not matter, each is placed by its top).
    const bySlot: ReactNode[] = new Array(slots).fill(null);
    for (let i = first; i < last; i += 1) bySlot[i % slots] = renderRow(i, i * rowHeight, String(i % slots));
    for (const r of bySlot) if (r !== null) rows.push(r);
    if (pinned !== null && pinned >= 0 && pinned < count && (pinned < first || pinned >= last))
      rows.push(renderRow(pinned, pinned * rowHeight, `pinned-${pinned}`));
  } else for (let i = first; i < last; i += 1) rows.push(renderRow(i, i * rowHeight, String(i % slots)));
  return (
    <div
      className="virtual-rows"
      role="rowgroup"
      aria-label={label}
      style={{ height }}
      onScroll={(e) => setTopRow(Math.floor(e.currentTarget.scrollTop / rowHeight))}
      tabIndex={tabbable ? 0 : undefined}
    >
      <div className="virtual-spacer" style={{ height: count * rowHeight }}>
        {layout === 'placed' ? (
          rows
        ) : (
          <div className="virtual-window" style={{ transform: `translateY(${first * rowHeight}px)` }}>
            {rows}
          </div>
        )}
      </div>
    </div>
  );
}
