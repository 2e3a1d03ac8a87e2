/**
 * Where the arrow keys move focus in the composite widgets of the WAI-ARIA Authoring Practices:
 * a row of tabs, radios or toolbar buttons (one Tab stop, arrows inside), and a data grid.
 */

/** The index a key moves to in a row of `count` items (wrapping at either end), or null for other keys. */
export function nextIndex(key: string, index: number, count: number, orientation: 'horizontal' | 'vertical' = 'horizontal'): number | null {
  if (count <= 0) return null;
  const forward = orientation === 'horizontal' ? 'ArrowRight' : 'ArrowDown';
  const back = orientation === 'horizontal' ? 'ArrowLeft' : 'ArrowUp';
  if (key === forward) return (index + 1) % count;
  if (key === back) return (index - 1 + count) % count;
  if (key === 'Home') return 0;
  if (key === 'End') return count - 1;
  return null;
}

export interface GridCell {
  row: number;
  col: number;
}

export interface GridSize {
  rows: number;
  cols: number;
  /** Rows one Page Up or Page Down moves: about a view's worth. */
  page: number;
}

/**
 * The cell a key moves to in a data grid (no wrapping, as the practices' data grid does): arrows by
 * one, Home and End to the row's ends, Ctrl+Home and Ctrl+End to the grid's first and last cells,
 * Page Up and Page Down by a page of rows. Null for any other key.
 */
export function moveInGrid(key: string, ctrl: boolean, at: GridCell, size: GridSize): GridCell | null {
  if (size.rows <= 0 || size.cols <= 0) return null;
  const clamp = (row: number, col: number): GridCell => ({
    row: Math.max(0, Math.min(size.rows - 1, row)),
    col: Math.max(0, Math.min(size.cols - 1, col)),
  });
  switch (key) {
    case 'ArrowDown':
      return clamp(at.row + 1, at.col);
    case 'ArrowUp':
      return clamp(at.row - 1, at.col);
    case 'ArrowRight':
      return clamp(at.row, at.col + 1);
    case 'ArrowLeft':
      return clamp(at.row, at.col - 1);
    case 'PageDown':
      return clamp(at.row + size.page, at.col);
    case 'PageUp':
      return clamp(at.row - size.page, at.col);
    case 'Home':
      return ctrl ? clamp(0, 0) : clamp(at.row, 0);
    case 'End':
      return ctrl ? clamp(size.rows - 1, size.cols - 1) : clamp(at.row, size.cols - 1);
    default:
      return null;
  }
}
