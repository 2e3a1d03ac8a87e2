// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Box } from '../../../../shared/schemas/answer';
import { BoxEditor } from './BoxEditor';

afterEach(cleanup);

beforeAll(() => {
  // jsdom has no PointerEvent; a MouseEvent carries the coordinates the editor reads.
  if (!('PointerEvent' in window)) {
    class PointerEventShim extends MouseEvent {
      readonly pointerId: number;
      constructor(type: string, init: PointerEventInit = {}) {
        super(type, init);
        this.pointerId = init.pointerId ?? 0;
      }
    }
    Object.assign(window, { PointerEvent: PointerEventShim });
  }
});

/** The editor is controlled: this keeps its boxes the way the Boxes screen does. */
function Harness({ initial, onChange }: { initial: Box[]; onChange: (next: Box[]) => void }) {
  const [truth, setTruth] = useState(initial);
  return (
    <BoxEditor
      image="data:image/png;base64,AAAA"
      name="card.png"
      truth={truth}
      answer={null}
      onChange={(next) => {
        setTruth(next);
        onChange(next);
      }}
    />
  );
}

function setup(truth: Box[]) {
  const onChange = vi.fn<(next: Box[]) => void>();
  render(<Harness initial={truth} onChange={onChange} />);
  const editor = screen.getByRole('application');
  const canvas = screen.getByTestId('box-canvas') as unknown as SVGSVGElement;
  // jsdom lays nothing out: give the drawing surface a size, as a browser would.
  canvas.getBoundingClientRect = () => ({ left: 0, top: 0, width: 400, height: 300, right: 400, bottom: 300, x: 0, y: 0, toJSON: () => ({}) });
  canvas.setPointerCapture = () => undefined;
  return { onChange, editor, canvas };
}

const last = (fn: ReturnType<typeof vi.fn>) => fn.mock.calls.at(-1)![0] as Box[];

describe('BoxEditor', () => {
  it('draws a new box by dragging', () => {
    const { onChange, canvas } = setup([]);
    fireEvent.pointerDown(canvas, { clientX: 40, clientY: 30, pointerId: 1 });
    fireEvent.pointerMove(canvas, { clientX: 200, clientY: 150, pointerId: 1 });
    fireEvent.pointerUp(canvas, { pointerId: 1 });
    const [box] = last(onChange);
    expect(box).toEqual({ left: 0.1, top: 0.1, right: 0.5, bottom: 0.5 });
  });

  it('ignores a click that draws nothing', () => {
    const { onChange, canvas } = setup([]);
    fireEvent.pointerDown(canvas, { clientX: 40, clientY: 30, pointerId: 1 });
    fireEvent.pointerUp(canvas, { pointerId: 1 });
    expect(last(onChange)).toEqual([]);
  });

  it('moves and resizes with the keyboard, and never leaves the image', () => {
    const truth = [{ left: 0.1, top: 0.1, right: 0.3, bottom: 0.2 }];
    const { onChange, editor } = setup(truth);
    fireEvent.keyDown(editor, { key: 'ArrowRight' });
    expect(last(onChange)[0]!.left).toBeCloseTo(0.11, 10);
    fireEvent.keyDown(editor, { key: 'ArrowDown', altKey: true });
    expect(last(onChange)[0]!.bottom).toBeCloseTo(0.21, 10);
    fireEvent.keyDown(editor, { key: 'ArrowUp', shiftKey: true });
    fireEvent.keyDown(editor, { key: 'ArrowUp', shiftKey: true });
    fireEvent.keyDown(editor, { key: 'ArrowUp', shiftKey: true });
    expect(last(onChange)[0]!.top).toBeGreaterThanOrEqual(0);
  });

  it('adds a box with N and removes the selected one with Delete', () => {
    const truth = [{ left: 0.1, top: 0.1, right: 0.3, bottom: 0.2 }];
    const { onChange, editor } = setup(truth);
    fireEvent.keyDown(editor, { key: 'n' });
    expect(last(onChange)).toHaveLength(2);
    // The new box is the selected one, so Delete takes it away again.
    fireEvent.keyDown(editor, { key: 'Delete' });
    expect(last(onChange)).toEqual(truth);
    fireEvent.keyDown(editor, { key: 'Delete' });
    expect(last(onChange)).toEqual([]);
  });

  it('moves a box by dragging it and resizes it by a corner', () => {
    const truth = [{ left: 0.25, top: 0.25, right: 0.5, bottom: 0.5 }];
    const { onChange, canvas } = setup(truth);
    const body = canvas.querySelector('rect.truth-box')!;
    fireEvent.pointerDown(body, { clientX: 150, clientY: 112.5, pointerId: 1 });
    fireEvent.pointerMove(canvas, { clientX: 190, clientY: 142.5, pointerId: 1 });
    fireEvent.pointerUp(canvas, { pointerId: 1 });
    const moved = last(onChange)[0]!;
    expect(moved.left).toBeCloseTo(0.35, 10);
    expect(moved.top).toBeCloseTo(0.35, 10);
    expect(moved.right - moved.left).toBeCloseTo(0.25, 10);
    const corner = canvas.querySelector('rect.handle[data-corner="br"]')!;
    fireEvent.pointerDown(corner, { clientX: 200, clientY: 150, pointerId: 2 });
    fireEvent.pointerMove(canvas, { clientX: 360, clientY: 270, pointerId: 2 });
    fireEvent.pointerUp(canvas, { pointerId: 2 });
    expect(last(onChange)[0]).toMatchObject({ right: 0.9, bottom: 0.9 });
  });
});
