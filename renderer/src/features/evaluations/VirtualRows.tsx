import { useEffect, useState, type ReactNode } from 'react';

/**
 * A list that renders only the rows in view (plus a margin), so 100,000 rows cost what 30 do.
 * `renderRow` gets each visible index; rows are `rowHeight` pixels tall.
 */
export function VirtualRows({ count, rowHeight, height, renderRow, label, onRange }: { count: number; rowHeight: number; height: number; renderRow: (index: number) => ReactNode; label: string; onRange?: (first: number, last: number) => void }) {
  const [top, setTop] = useState(0);
  const first = Math.max(0, Math.floor(top / rowHeight) - 10);
  const last = Math.min(count, Math.ceil((top + height) / rowHeight) + 10);
  useEffect(() => onRange?.(first, last), [first, last, onRange]);
  const rows: ReactNode[] = [];
  for (let i = first; i < last; i += 1) rows.push(renderRow(i));
  return (
    <div className="virtual-rows" role="rowgroup" aria-label={label} style={{ height }} onScroll={(e) => setTop(e.currentTarget.scrollTop)} tabIndex={0}>
      <div className="virtual-spacer" style={{ height: count * rowHeight }}>
        <div className="virtual-window" style={{ transform: `translateY(${first * rowHeight}px)` }}>
          {rows}
        </div>
      </div>
    </div>
  );
}
