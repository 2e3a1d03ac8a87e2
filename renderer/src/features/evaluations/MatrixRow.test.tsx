// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useRef } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { MatrixRow } from './MatrixRow';
import { VirtualRows } from './VirtualRows';

afterEach(cleanup);

const ROW = 34;
const HEIGHT = 420; // 13 rows in view, 10 more either side: 33 slots

/** The results grid's rows over 40 items, the stop on `stop` (column 0), as ResultsMatrix draws them. */
function Rows({ stop }: { stop: number }) {
  const holds = useRef(true);
  return (
    <VirtualRows
      label="Items"
      count={40}
      rowHeight={ROW}
      height={HEIGHT}
      layout="placed"
      pinned={stop}
      tabbable={false}
      renderRow={(i, top, key) => (
        <MatrixRow
          key={key}
          index={i}
          row={undefined}
          top={top}
          models={[]}
          questions={[]}
          focusCol={i === stop ? 0 : null}
          gridHoldsFocus={holds}
          onOpen={() => {}}
        />
      )}
    />
  );
}

function scrollTo(px: number) {
  const list = screen.getByRole('rowgroup', { name: 'Items' });
  act(() => {
    list.scrollTop = px;
    fireEvent.scroll(list);
  });
}

const focusedRow = () => document.activeElement?.closest<HTMLElement>('[data-row]')?.dataset['row'];

describe('MatrixRow', () => {
  it('keeps focus on the stop when the list catches up with a jump, its row then drawn by an element that showed another row', () => {
    const { rerender } = render(<Rows stop={1} />);
    // Ctrl+End: the last row is drawn pinned, far from the view, and focused (which scrolls the list).
    rerender(<Rows stop={39} />);
    act(() => document.querySelector<HTMLElement>('[data-row="39"] [data-col="0"]')!.focus());
    expect(focusedRow()).toBe('39');
    // The list catches up: row 39 is now drawn by the slot element that held row 6.
    scrollTo(40 * ROW - HEIGHT);
    expect(focusedRow()).toBe('39');
    // Ctrl+Home: the same the other way (row 0 drawn by the element that held row 33).
    rerender(<Rows stop={0} />);
    act(() => document.querySelector<HTMLElement>('[data-row="0"] [data-col="0"]')!.focus());
    scrollTo(0);
    expect(focusedRow()).toBe('0');
  });

  it('keeps focus on the stop when a key is pressed before the list has caught up with the move before it', () => {
    const { rerender } = render(<Rows stop={1} />);
    // Ctrl+End: the last row is drawn pinned and focused; its scroll is not handled yet.
    rerender(<Rows stop={39} />);
    act(() => document.querySelector<HTMLElement>('[data-row="39"] [data-col="0"]')!.focus());
    // Ctrl+Home at once: the list still thinks it is at the top, so row 0 is drawn in its slot and
    // the pinned row 39 goes (focus falls to the page, and row 0 takes it back).
    rerender(<Rows stop={0} />);
    expect(focusedRow()).toBe('0');
    // Now the scroll the Ctrl+End caused is handled: the slot that drew row 0 draws row 33, and row 0
    // is drawn pinned. Focus stays on row 0, not on the element now showing row 33.
    scrollTo(40 * ROW - HEIGHT);
    expect(document.querySelector('[data-row="33"]')).not.toBeNull();
    expect(focusedRow()).toBe('0');
  });

  it('keeps focus on the stop when the wheel scrolls its row out of the list, and leaves the view where the wheel put it', () => {
    render(<Rows stop={5} />);
    act(() => document.querySelector<HTMLElement>('[data-row="5"] [data-col="0"]')!.focus());
    scrollTo(20 * ROW);
    const list = screen.getByRole('rowgroup', { name: 'Items' });
    expect(focusedRow()).toBe('5');
    expect(list.scrollTop).toBe(20 * ROW);
  });
});
