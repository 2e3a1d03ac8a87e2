// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { memo } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualRows } from './VirtualRows';

afterEach(cleanup);

const ROW = 20;
const HEIGHT = 100; // 5 rows in view, 10 more either side

const Row = memo(function Row({ index, top }: { index: number; top: number }) {
  return (
    <div role="row" data-index={index} style={{ top }}>
      row {index}
    </div>
  );
});

function rows(): HTMLElement[] {
  return screen.getAllByRole('row');
}

function scrollTo(px: number) {
  const list = screen.getByRole('rowgroup', { name: 'Items' });
  act(() => {
    list.scrollTop = px;
    fireEvent.scroll(list);
  });
}

describe('VirtualRows', () => {
  it('renders only the rows around the view, each at its own top, in placed layout', () => {
    render(
      <VirtualRows
        label="Items"
        count={10_000}
        rowHeight={ROW}
        height={HEIGHT}
        layout="placed"
        renderRow={(i, top, slot) => <Row key={slot} index={i} top={top} />}
      />,
    );
    expect(rows().map((r) => Number(r.dataset['index']))).toEqual(Array.from({ length: 15 }, (_, i) => i));
    scrollTo(5_000 * ROW);
    const shown = rows()
      .map((r) => Number(r.dataset['index']))
      .sort((a, b) => a - b);
    expect(shown).toEqual(Array.from({ length: 25 }, (_, i) => 4_990 + i));
    for (const r of rows()) expect(r.style.top).toBe(`${Number(r.dataset['index']) * ROW}px`);
  });

  it('reuses the elements of rows that leave the view for the rows that enter it', () => {
    render(
      <VirtualRows
        label="Items"
        count={10_000}
        rowHeight={ROW}
        height={HEIGHT}
        layout="placed"
        renderRow={(i, top, slot) => <Row key={slot} index={i} top={top} />}
      />,
    );
    scrollTo(100 * ROW);
    const before = new Set(rows());
    expect(before.size).toBe(25);
    scrollTo(112 * ROW); // 12 rows further: 12 leave at the top, 12 enter at the bottom
    const after = rows();
    expect(after.map((r) => Number(r.dataset['index'])).sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => 102 + i));
    // Every element on screen now was on screen before: none created, none removed.
    for (const r of after) expect(before.has(r)).toBe(true);
  });

  it('in flow layout moves one window to the first row and keeps the rows in order', () => {
    const { container } = render(
      <VirtualRows label="Items" count={1_000} rowHeight={ROW} height={HEIGHT} renderRow={(i) => <Row key={i} index={i} top={0} />} />,
    );
    scrollTo(300 * ROW);
    expect(rows().map((r) => Number(r.dataset['index']))).toEqual(Array.from({ length: 25 }, (_, i) => 290 + i));
    expect(container.querySelector<HTMLElement>('.virtual-window')!.style.transform).toBe(`translateY(${290 * ROW}px)`);
  });

  it('stops at the end of the list', () => {
    render(
      <VirtualRows
        label="Items"
        count={30}
        rowHeight={ROW}
        height={HEIGHT}
        layout="placed"
        renderRow={(i, top, slot) => <Row key={slot} index={i} top={top} />}
      />,
    );
    scrollTo(25 * ROW);
    expect(
      rows()
        .map((r) => Number(r.dataset['index']))
        .sort((a, b) => a - b),
    ).toEqual(Array.from({ length: 15 }, (_, i) => 15 + i));
  });

  it('keeps a pinned row rendered, once, wherever the list is scrolled', () => {
    render(
      <VirtualRows
        label="Items"
        count={10_000}
        rowHeight={ROW}
        height={HEIGHT}
        layout="placed"
        pinned={3}
        renderRow={(i, top, key) => <Row key={key} index={i} top={top} />}
      />,
    );
    expect(rows()).toHaveLength(15);
    scrollTo(5_000 * ROW);
    // Far from the view, the row is still there: one more than the 25 around the view, at its own top.
    expect(rows()).toHaveLength(26);
    const far = rows().filter((r) => r.dataset['index'] === '3');
    expect(far).toHaveLength(1);
    expect(far[0]!.style.top).toBe(`${3 * ROW}px`);
    scrollTo(0);
    expect(rows().filter((r) => r.dataset['index'] === '3')).toHaveLength(1);
    expect(rows()).toHaveLength(15);
  });
});
