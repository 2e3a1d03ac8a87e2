// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Box } from '../../../../shared/schemas/answer';
import type { TruthBox } from '../../../../shared/schemas/inspector';
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
  // jsdom lays nothing out: the viewport is 400 x 300 CSS pixels, as a browser would measure it.
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => 400 });
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => 300 });
});

/** The editor keeps its own edits and reports each one, the way the Boxes screen stores them. */
function Harness({ initial, answers, onChange }: { initial: TruthBox[]; answers: Record<string, Box>; onChange: (next: TruthBox[]) => void }) {
  const [truth, setTruth] = useState(initial);
  const [next, setNext] = useState<string | undefined>('card');
  return (
    <BoxEditor
      image="data:image/png;base64,AAAA"
      name="card.png"
      size={{ width: 400, height: 300 }}
      truth={truth}
      answers={answers}
      labels={['card', 'badge']}
      nextLabel={next}
      onNextLabel={setNext}
      hidden={new Set()}
      focus={null}
      onChange={(next) => {
        setTruth(next);
        onChange(next);
      }}
    />
  );
}

/** The 400 x 300 image fits the 400 x 300 viewport at 100 %: a client pixel is an image pixel. */
function setup(truth: TruthBox[], answers: Record<string, Box> = {}) {
  const onChange = vi.fn<(next: TruthBox[]) => void>();
  render(<Harness initial={truth} answers={answers} onChange={onChange} />);
  const canvas = screen.getByTestId('box-canvas');
  canvas.getBoundingClientRect = () => ({ left: 0, top: 0, width: 400, height: 300, right: 400, bottom: 300, x: 0, y: 0, toJSON: () => ({}) });
  return { onChange, canvas };
}

const last = (fn: ReturnType<typeof vi.fn>) => fn.mock.calls.at(-1)![0] as TruthBox[];
const drag = (from: Element, to: Element, a: [number, number], b: [number, number], extra: object = {}) => {
  fireEvent.pointerDown(from, { clientX: a[0], clientY: a[1], pointerId: 1, ...extra });
  fireEvent.pointerMove(to, { clientX: b[0], clientY: b[1], pointerId: 1, ...extra });
  fireEvent.pointerUp(to, { pointerId: 1, ...extra });
};

describe('BoxEditor', () => {
  it('draws a new box by dragging, labelled with the first question', () => {
    const { onChange, canvas } = setup([]);
    drag(canvas, canvas, [40, 30], [200, 150]);
    expect(last(onChange)).toEqual([{ left: 0.1, top: 0.1, right: 0.5, bottom: 0.5, label: 'card' }]);
    expect(screen.getByText('1 ground-truth box')).toBeTruthy();
  });

  it('snaps an edge drawn within a few pixels of the image edge onto it', () => {
    const { onChange, canvas } = setup([]);
    drag(canvas, canvas, [3, 30], [200, 297]);
    expect(last(onChange)[0]).toMatchObject({ left: 0, bottom: 1 });
  });

  it('ignores a click that draws nothing', () => {
    const { onChange, canvas } = setup([]);
    fireEvent.pointerDown(canvas, { clientX: 40, clientY: 30, pointerId: 1 });
    fireEvent.pointerUp(canvas, { pointerId: 1 });
    expect(onChange).not.toHaveBeenCalled();
  });

  it('moves and resizes with the keyboard, never leaves the image, and pans when nothing is selected', () => {
    const { onChange, canvas } = setup([{ left: 0.1, top: 0.1, right: 0.3, bottom: 0.2, label: 'card' }]);
    fireEvent.keyDown(canvas, { key: 'ArrowRight' });
    expect(last(onChange)[0]!.left).toBeCloseTo(0.11, 10);
    fireEvent.keyDown(canvas, { key: 'ArrowDown', altKey: true });
    expect(last(onChange)[0]!.bottom).toBeCloseTo(0.21, 10);
    for (let i = 0; i < 3; i += 1) fireEvent.keyDown(canvas, { key: 'ArrowUp', shiftKey: true });
    expect(last(onChange)[0]!.top).toBe(0);
    expect(last(onChange)[0]!.label).toBe('card');
    const calls = onChange.mock.calls.length;
    const image = screen.getByTestId('box-image');
    fireEvent.keyDown(canvas, { key: 'Escape' });
    fireEvent.keyDown(canvas, { key: 'ArrowRight' });
    expect(onChange.mock.calls.length).toBe(calls);
    expect(image.style.transform).toBe('translate(-40px, 0px) scale(1)');
  });

  it('adds a box with N and removes the selected one with Delete', () => {
    const truth = [{ left: 0.1, top: 0.1, right: 0.3, bottom: 0.2 }];
    const { onChange, canvas } = setup(truth);
    fireEvent.keyDown(canvas, { key: 'n' });
    expect(last(onChange)).toHaveLength(2);
    fireEvent.keyDown(canvas, { key: 'Delete' });
    expect(last(onChange)).toEqual(truth);
    fireEvent.keyDown(canvas, { key: 'Delete' });
    expect(last(onChange)).toEqual([]);
  });

  it('moves a box by dragging it and resizes it by a corner or a side', () => {
    const { onChange, canvas } = setup([{ left: 0.25, top: 0.25, right: 0.5, bottom: 0.5 }]);
    drag(canvas.querySelector('rect.truth-rect')!, canvas, [150, 112.5], [190, 142.5]);
    const moved = last(onChange)[0]!;
    expect(moved.left).toBeCloseTo(0.35, 10);
    expect(moved.top).toBeCloseTo(0.35, 10);
    expect(moved.right - moved.left).toBeCloseTo(0.25, 10);
    drag(canvas.querySelector('rect.handle[data-handle="se"]')!, canvas, [240, 180], [360, 270]);
    expect(last(onChange)[0]).toMatchObject({ right: 0.9, bottom: 0.9 });
    drag(canvas.querySelector('rect.handle[data-handle="w"]')!, canvas, [140, 200], [40, 10]);
    expect(last(onChange)[0]).toMatchObject({ left: 0.1, top: 0.35, right: 0.9, bottom: 0.9 });
  });

  it('pans by dragging with the space bar held or with the middle button, without drawing', () => {
    const { onChange, canvas } = setup([]);
    const image = screen.getByTestId('box-image');
    fireEvent.keyDown(canvas, { key: ' ' });
    drag(canvas, canvas, [100, 100], [130, 90]);
    fireEvent.keyUp(canvas, { key: ' ' });
    expect(image.style.transform).toBe('translate(30px, -10px) scale(1)');
    drag(canvas, canvas, [100, 100], [90, 120], { button: 1 });
    expect(image.style.transform).toBe('translate(20px, 10px) scale(1)');
    expect(onChange).not.toHaveBeenCalled();
  });

  it('selects the next and previous box with B and Shift+B, so every box can be reached by keyboard', () => {
    const { onChange, canvas } = setup([
      { left: 0.1, top: 0.1, right: 0.2, bottom: 0.2, label: 'card' },
      { left: 0.5, top: 0.5, right: 0.6, bottom: 0.6, label: 'badge' },
    ]);
    // The selected box is the current row of the ground-truth list.
    const label = () =>
      screen.getByRole('list', { name: 'Ground-truth boxes' }).querySelector('li[aria-current="true"] select')!.getAttribute('aria-label') === 'Label of box 1'
        ? 'card'
        : 'badge';
    expect(label()).toBe('card');
    fireEvent.keyDown(canvas, { key: 'b' });
    expect(label()).toBe('badge');
    fireEvent.keyDown(canvas, { key: 'b' });
    expect(label()).toBe('card');
    fireEvent.keyDown(canvas, { key: 'B', shiftKey: true });
    expect(label()).toBe('badge');
    fireEvent.keyDown(canvas, { key: 'Delete' });
    expect(last(onChange).map((b) => b.label)).toEqual(['card']);
  });

  it('deletes the selected box with the mouse too', () => {
    const { onChange } = setup([{ left: 0.1, top: 0.1, right: 0.3, bottom: 0.2 }]);
    act(() => screen.getByRole('button', { name: 'Delete box' }).click());
    expect(last(onChange)).toEqual([]);
    expect((screen.getByRole('button', { name: 'Delete box' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('undoes and redoes every edit with Ctrl+Z, Ctrl+Shift+Z and Ctrl+Y', () => {
    const first = { left: 0.1, top: 0.1, right: 0.3, bottom: 0.2 };
    const { onChange, canvas } = setup([first]);
    fireEvent.keyDown(canvas, { key: 'ArrowRight' });
    fireEvent.keyDown(canvas, { key: 'n' });
    expect(last(onChange)).toHaveLength(2);
    fireEvent.keyDown(canvas, { key: 'z', ctrlKey: true });
    expect(last(onChange)).toHaveLength(1);
    fireEvent.keyDown(canvas, { key: 'z', ctrlKey: true });
    expect(last(onChange)).toEqual([first]);
    fireEvent.keyDown(canvas, { key: 'Z', ctrlKey: true, shiftKey: true });
    expect(last(onChange)[0]!.left).toBeCloseTo(0.11, 10);
    fireEvent.keyDown(canvas, { key: 'y', ctrlKey: true });
    expect(last(onChange)).toHaveLength(2);
    expect((screen.getByRole('button', { name: 'Redo' }) as HTMLButtonElement).disabled).toBe(true);
  });

  // 100 % moved from 1 to Shift+1: the digits choose the next box's label, as in Label Studio and CVAT.
  it('zooms with + and −, about the pointer with the wheel, back to fit with 0, and to 100 % with Shift+1', () => {
    const { canvas } = setup([]);
    const level = screen.getByTestId('zoom-level');
    expect(level.textContent).toBe('100%');
    fireEvent.keyDown(canvas, { key: '+' });
    expect(level.textContent).toBe('125%');
    fireEvent.keyDown(canvas, { key: '-' });
    fireEvent.keyDown(canvas, { key: '-' });
    expect(level.textContent).toBe('80%');
    fireEvent.keyDown(canvas, { key: '1', code: 'Digit1' });
    expect(level.textContent).toBe('80%');
    fireEvent.keyDown(canvas, { key: '!', code: 'Digit1', shiftKey: true });
    expect(level.textContent).toBe('100%');
    // The image point under the pointer (100, 50) stays under it.
    fireEvent.wheel(canvas, { deltaY: -500, clientX: 100, clientY: 50 });
    const image = screen.getByTestId('box-image');
    const m = /translate\((-?[\d.]+)px, (-?[\d.]+)px\) scale\(([\d.]+)\)/.exec(image.style.transform)!;
    const [x, y, s] = [Number(m[1]), Number(m[2]), Number(m[3])];
    expect(s).toBeGreaterThan(1.5);
    expect((100 - x) / s).toBeCloseTo(100, 6);
    expect((50 - y) / s).toBeCloseTo(50, 6);
    fireEvent.keyDown(canvas, { key: '0' });
    expect(level.textContent).toBe('100%');
  });

  it('shows the crosshair position in image pixels', () => {
    const { canvas } = setup([]);
    fireEvent.keyDown(canvas, { key: '+' });
    fireEvent.pointerMove(canvas, { clientX: 200, clientY: 150, pointerId: 1 });
    expect(screen.getByTestId('cursor-readout').textContent).toBe('x 200, y 150 px');
    expect(canvas.querySelectorAll('.crosshair line')).toHaveLength(2);
  });

  it('draws each answer with its IoU against the truth of its question, and hides truth or answers on request', () => {
    const { canvas } = setup([{ left: 0, top: 0, right: 0.5, bottom: 0.5, label: 'card' }], {
      card: { left: 0, top: 0, right: 0.25, bottom: 0.5 },
      badge: { left: 0.6, top: 0.6, right: 0.9, bottom: 0.9 },
    });
    expect(canvas.textContent).toContain('card · IoU 0.50');
    expect(canvas.textContent).toContain('badge · no truth');
    act(() => screen.getByRole('radio', { name: 'Truth' }).click());
    expect(canvas.querySelectorAll('.answer-rect')).toHaveLength(0);
    expect(canvas.querySelectorAll('.truth-rect')).toHaveLength(1);
    act(() => screen.getByRole('radio', { name: 'Answers' }).click());
    expect(canvas.querySelectorAll('.answer-rect')).toHaveLength(2);
    expect(canvas.querySelectorAll('.truth-rect')).toHaveLength(0);
  });

  it('relabels one box from its row of the ground-truth list, as one undoable edit', () => {
    const { onChange } = setup([{ left: 0.1, top: 0.1, right: 0.3, bottom: 0.2, label: 'card' }]);
    fireEvent.change(screen.getByLabelText('Label of box 1'), { target: { value: 'badge' } });
    expect(last(onChange)[0]!.label).toBe('badge');
  });

  it('the next box’s label never relabels the box just drawn (it used to follow the selection)', () => {
    const { onChange, canvas } = setup([]);
    drag(canvas, canvas, [40, 30], [120, 90]);
    expect(last(onChange).map((b) => b.label)).toEqual(['card']);
    // The box just drawn is selected; choosing the next label leaves it as it is.
    fireEvent.change(screen.getByLabelText('Label of the next box'), { target: { value: 'badge' } });
    expect(last(onChange).map((b) => b.label)).toEqual(['card']);
    drag(canvas, canvas, [200, 150], [300, 250]);
    expect(last(onChange).map((b) => b.label)).toEqual(['card', 'badge']);
  });
});
