import type { KeyboardEvent } from 'react';
import type { TruthBox } from '../../../../shared/schemas/inspector';
import { move, normalise } from './geometry';

/** Screen pixels an arrow pans by when no box is selected (four times with Shift). */
const PAN_PX = 40;
export const ZOOM_STEP = 1.25;

const ARROWS: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/** What a key on the workbench can change. */
export interface BoxKeyTarget {
  boxes: TruthBox[];
  selected: number | null;
  /** The label a new box gets. */
  label: string | undefined;
  select: (index: number | null) => void;
  commit: (next: TruthBox[]) => void;
  undo: () => void;
  redo: () => void;
  holdSpace: () => void;
  panBy: (dx: number, dy: number) => void;
  zoomBy: (factor: number) => void;
  fit: () => void;
  actual: () => void;
}

/**
 * The workbench's keys (see BoxEditor): N adds a box, arrows move the selected one (Alt: resize,
 * Shift: more) or pan, Delete removes, B selects the next box, Escape deselects, + − 0 and Shift+1
 * zoom, Ctrl+Z / Ctrl+Shift+Z / Ctrl+Y undo and redo. Whether the key was the workbench's.
 */
export function boxKey(e: KeyboardEvent, t: BoxKeyTarget): boolean {
  const mod = e.ctrlKey || e.metaKey;
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  const current = t.boxes;
  const chosen = t.selected !== null ? current[t.selected] : undefined;
  const step = e.shiftKey ? 0.05 : 0.01;
  const arrow = ARROWS[key];
  if (mod && (key === 'y' || (key === 'z' && e.shiftKey))) t.redo();
  else if (mod && key === 'z') t.undo();
  else if (mod) return false;
  else if (key === ' ') t.holdSpace();
  else if (key === 'n') {
    t.commit([...current, { top: 0.35, bottom: 0.65, left: 0.35, right: 0.65, ...(t.label ? { label: t.label } : {}) }]);
    t.select(current.length);
  } else if ((key === 'Delete' || key === 'Backspace') && chosen) {
    t.commit(current.filter((_, i) => i !== t.selected));
    t.select(current.length > 1 ? 0 : null);
  } else if (key === 'Escape') t.select(null);
  else if (key === 'b' && current.length > 0) t.select(((t.selected ?? (e.shiftKey ? 0 : -1)) + (e.shiftKey ? current.length - 1 : 1)) % current.length);
  else if (arrow && chosen) {
    const [dx, dy] = arrow;
    const moved = e.altKey ? normalise({ ...chosen, right: chosen.right + dx * step, bottom: chosen.bottom + dy * step }) : move(chosen, dx * step, dy * step);
    t.commit(current.map((b, i) => (i === t.selected ? { ...b, ...moved } : b)));
  } else if (arrow) t.panBy(-arrow[0] * PAN_PX * (e.shiftKey ? 4 : 1), -arrow[1] * PAN_PX * (e.shiftKey ? 4 : 1));
  else if (key === '+' || key === '=') t.zoomBy(ZOOM_STEP);
  else if (key === '-' || key === '_') t.zoomBy(1 / ZOOM_STEP);
  else if (key === '0') t.fit();
  // Shift+1: the digits alone choose labels.
  else if (e.code === 'Digit1' && e.shiftKey) t.actual();
  else return false;
  return true;
}
