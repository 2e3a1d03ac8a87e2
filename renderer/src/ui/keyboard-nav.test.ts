import { describe, expect, it } from 'vitest';
import { moveInGrid, nextIndex } from './keyboard-nav';

describe('arrow keys in a row of tabs, radios or toolbar buttons', () => {
  it('moves by one and wraps at either end', () => {
    expect(nextIndex('ArrowRight', 0, 3)).toBe(1);
    expect(nextIndex('ArrowRight', 2, 3)).toBe(0);
    expect(nextIndex('ArrowLeft', 0, 3)).toBe(2);
  });

  it('goes to the ends with Home and End, and ignores other keys', () => {
    expect(nextIndex('Home', 2, 3)).toBe(0);
    expect(nextIndex('End', 0, 3)).toBe(2);
    expect(nextIndex('Enter', 1, 3)).toBeNull();
    expect(nextIndex('ArrowRight', 0, 0)).toBeNull();
  });

  it('reads up and down in a vertical row, not left and right', () => {
    expect(nextIndex('ArrowDown', 0, 3, 'vertical')).toBe(1);
    expect(nextIndex('ArrowUp', 0, 3, 'vertical')).toBe(2);
    expect(nextIndex('ArrowRight', 0, 3, 'vertical')).toBeNull();
  });
});

describe('arrow keys in a data grid', () => {
  const size = { rows: 40, cols: 4, page: 10 };

  it('moves one cell at a time and stops at the edges', () => {
    expect(moveInGrid('ArrowDown', false, { row: 0, col: 1 }, size)).toEqual({ row: 1, col: 1 });
    expect(moveInGrid('ArrowUp', false, { row: 0, col: 1 }, size)).toEqual({ row: 0, col: 1 });
    expect(moveInGrid('ArrowRight', false, { row: 5, col: 3 }, size)).toEqual({ row: 5, col: 3 });
    expect(moveInGrid('ArrowLeft', false, { row: 5, col: 3 }, size)).toEqual({ row: 5, col: 2 });
  });

  it('pages by a view of rows, within the grid', () => {
    expect(moveInGrid('PageDown', false, { row: 35, col: 2 }, size)).toEqual({ row: 39, col: 2 });
    expect(moveInGrid('PageUp', false, { row: 12, col: 2 }, size)).toEqual({ row: 2, col: 2 });
  });

  it('goes to the row ends with Home and End, and to the grid ends with Ctrl', () => {
    expect(moveInGrid('Home', false, { row: 7, col: 3 }, size)).toEqual({ row: 7, col: 0 });
    expect(moveInGrid('End', false, { row: 7, col: 0 }, size)).toEqual({ row: 7, col: 3 });
    expect(moveInGrid('Home', true, { row: 7, col: 3 }, size)).toEqual({ row: 0, col: 0 });
    expect(moveInGrid('End', true, { row: 7, col: 0 }, size)).toEqual({ row: 39, col: 3 });
  });

  it('ignores other keys and an empty grid', () => {
    expect(moveInGrid('a', false, { row: 0, col: 0 }, size)).toBeNull();
    expect(moveInGrid('ArrowDown', false, { row: 0, col: 0 }, { rows: 0, cols: 4, page: 10 })).toBeNull();
  });
});
