import { useLayoutEffect, useRef, useState, type FocusEvent, type KeyboardEvent } from 'react';
import { moveInGrid, type GridCell } from '../../ui/keyboard-nav';

/**
 * Keyboard focus in a data grid (WAI-ARIA Authoring Practices, data grid): one cell holds the
 * grid's Tab stop, the arrow keys, Home, End, Page Up and Page Down move it, Enter or Space acts on
 * its row. Cells are found by `data-row` on their row and `data-col` on the cell; a click or Tab
 * into a cell makes it the one holding the stop.
 */
export function useGridFocus({
  rows,
  cols,
  page,
  initialCol,
  onActivate,
}: {
  rows: number;
  cols: number;
  page: number;
  initialCol: number;
  onActivate: (row: number) => void;
}) {
  const [chosen, setChosen] = useState<GridCell>({ row: 0, col: initialCol });
  const grid = useRef<HTMLDivElement>(null);
  const moved = useRef(false);
  // Whether focus is in the grid: left by a blur to somewhere else, not by the focused row being
  // redrawn (a removed element sends no blur), so the row drawn again can take it back.
  const holds = useRef(false);
  // Fewer rows or columns (a filter, another question) keep the stop inside the grid.
  const active: GridCell | null = rows > 0 && cols > 0 ? { row: Math.min(chosen.row, rows - 1), col: Math.min(chosen.col, cols - 1) } : null;
  const cellAt = (c: GridCell) => grid.current?.querySelector<HTMLElement>(`[data-row="${c.row}"] [data-col="${c.col}"]`) ?? null;
  useLayoutEffect(() => {
    if (!moved.current || !active) return;
    moved.current = false;
    const cell = cellAt(active);
    if (!cell) return;
    cell.focus({ preventScroll: true });
    // Scrolled to explicitly, not by the focus: the cell may hold focus already (its row, drawn again,
    // took it back first), and focusing the focused element scrolls nothing. A list left where the
    // last move scrolled it would then catch up later and draw the row elsewhere.
    cell.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  });
  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    if (!active || e.altKey) return;
    const onButton = (e.target as HTMLElement).tagName === 'BUTTON';
    if (e.key === 'Enter' || (e.key === ' ' && !onButton)) {
      e.preventDefault();
      onActivate(active.row);
      return;
    }
    const next = moveInGrid(e.key, e.ctrlKey || e.metaKey, active, { rows, cols, page });
    if (!next) return;
    e.preventDefault();
    if (next.row === active.row && next.col === active.col) return;
    moved.current = true;
    setChosen(next);
  };
  const onBlur = (e: FocusEvent<HTMLElement>) => {
    holds.current = e.relatedTarget instanceof Node && grid.current?.contains(e.relatedTarget) === true;
  };
  const onFocus = (e: FocusEvent<HTMLElement>) => {
    holds.current = true;
    const cell = (e.target as HTMLElement).closest<HTMLElement>('[data-col]');
    const row = cell?.closest<HTMLElement>('[data-row]');
    if (!cell || !row) return;
    const at = { row: Number(row.dataset['row']), col: Number(cell.dataset['col']) };
    if (at.row !== active?.row || at.col !== active.col) setChosen(at);
  };
  /** Puts focus back on the cell holding the stop (after a pane it opened closes). */
  const focusActive = () => {
    if (active) cellAt(active)?.focus();
  };
  return { active, grid, holds, onKeyDown, onFocus, onBlur, focusActive };
}
