import { Toolbar } from '../../ui/Toolbar';
import type { Show } from './BoxOverlay';

const SHOWN: { id: Show; label: string }[] = [
  { id: 'both', label: 'Both' },
  { id: 'truth', label: 'Truth' },
  { id: 'answer', label: 'Answers' },
];

interface Props {
  zoom: number;
  onZoom: (how: 'out' | 'in' | 'fit' | 'actual') => void;
  canUndo: boolean;
  canRedo: boolean;
  onUndo: () => void;
  onRedo: () => void;
  canDelete: boolean;
  onDelete: () => void;
  show: Show;
  onShow: (show: Show) => void;
  /** The label the next box gets, and the labels to choose from (1–9 pick the first nine). */
  label: string | undefined;
  labels: readonly string[];
  onLabel: (label: string | undefined) => void;
  /** The pointer's position in image pixels, or the image's size. */
  readout: string;
}

/**
 * The editor's tools: zoom, undo and redo, delete, what is drawn, as one toolbar (one Tab stop,
 * arrows between its buttons, "Show" a group of radios inside it as the Authoring Practices'
 * toolbar has); the next box's label beside it, a field with arrows of its own.
 */
export function BoxTools({ zoom, onZoom, canUndo, canRedo, onUndo, onRedo, canDelete, onDelete, show, onShow, label, labels, onLabel, readout }: Props) {
  return (
    <div className="toolbar box-tools">
      <Toolbar label="Image tools" className="box-toolbar">
        <div role="group" aria-label="Zoom" className="button-group">
          <button type="button" className="secondary" onClick={() => onZoom('out')} aria-label="Zoom out">
            −
          </button>
          <span className="zoom-level" data-testid="zoom-level">
            {Math.round(zoom * 100)}%
          </span>
          <button type="button" className="secondary" onClick={() => onZoom('in')} aria-label="Zoom in">
            +
          </button>
          <button type="button" className="secondary" onClick={() => onZoom('fit')}>
            Fit
          </button>
          <button type="button" className="secondary" onClick={() => onZoom('actual')}>
            100%
          </button>
        </div>
        <div role="group" aria-label="Edit history" className="button-group">
          <button type="button" className="secondary" disabled={!canUndo} onClick={onUndo} title="Ctrl+Z">
            Undo
          </button>
          <button type="button" className="secondary" disabled={!canRedo} onClick={onRedo} title="Ctrl+Shift+Z or Ctrl+Y">
            Redo
          </button>
        </div>
        <button type="button" className="secondary" disabled={!canDelete} onClick={onDelete} title="Delete">
          Delete box
        </button>
        <div role="radiogroup" aria-label="Show" className="button-group">
          {SHOWN.map((s) => (
            <button
              key={s.id}
              type="button"
              role="radio"
              aria-checked={show === s.id}
              className={show === s.id ? '' : 'secondary'}
              onClick={() => onShow(s.id)}
            >
              {s.label}
            </button>
          ))}
        </div>
      </Toolbar>
      <label htmlFor="box-label" title="1–9 choose it from the keyboard">
        Next box
      </label>
      <select id="box-label" value={label ?? ''} onChange={(e) => onLabel(e.target.value || undefined)} aria-label="Label of the next box">
        <option value="">(none)</option>
        {labels.map((l, i) => (
          <option key={l} value={l}>
            {i < 9 ? `${i + 1} · ` : ''}
            {l}
          </option>
        ))}
      </select>
      <span className="muted small mono" data-testid="cursor-readout">
        {readout}
      </span>
    </div>
  );
}
