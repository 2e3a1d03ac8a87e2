import { useEffect, useState, type ReactNode } from 'react';

/** Rows rendered beyond the view on each side, so a fast scroll rarely shows an empty edge. */
const OVERSCAN = 10;

/**
 * A list that renders only the rows in view (plus a margin), so 100,000 rows cost what 30 do.
 * `renderRow` gets each visible index; rows are `rowHeight` pixels tall (one being edited may grow).
 * It renders again only when the first row in view changes, and rows that stay in view are left
 * alone when `renderRow` returns memoised components.
 */
export function VirtualRows({ count, rowHeight, height, renderRow, label, onRange }: { count: number; rowHeight: number; height: number; renderRow: (index: number) => ReactNode; label: string; onRange?: (first: number, last: number) => void }) {
  const [topRow, setTopRow] = useState(0);
  const first = Math.max(0, topRow - OVERSCAN);
  const last = Math.min(count, topRow + Math.ceil(height / rowHeight) + OVERSCAN);
  useEffect(() => onRange?.(first, last), [first, last, onRange]);
  const rows: ReactNode[] = [];
  for (let i = first; i < last; i += 1) rows.push(renderRow(i));
  return (
    <div className="virtual-rows" role="rowgroup" aria-label={label} style={{ height }} onScroll={(e) => setTopRow(Math.floor(e.currentTarget.scrollTop / rowHeight))} tabIndex={0}>
      <div className="virtual-spacer" style={{ height: count * rowHeight }}>
        <div className="virtual-window" style={{ transform: `translateY(${first * rowHeight}px)` }}>
          {rows}
        </div>
      </div>
    </div>
  );
}
