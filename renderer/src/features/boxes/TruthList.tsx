import type { TruthBox } from '../../../../shared/schemas/inspector';
import type { Size } from './geometry';
import { colourOf } from './palette';

/**
 * Where a box is, in words: its edges in image pixels when the image's size is known, else as
 * shares of the image. The overlay is a picture; this is how a screen reader, or anyone checking
 * what the keys did, reads the box.
 */
export function boxPlace(box: Pick<TruthBox, 'left' | 'right' | 'top' | 'bottom'>, image: Size | null): string {
  if (!image) return `x ${box.left.toFixed(2)}–${box.right.toFixed(2)}, y ${box.top.toFixed(2)}–${box.bottom.toFixed(2)} of the image`;
  const px = (f: number, side: number) => Math.round(f * side);
  return `x ${px(box.left, image.width)}–${px(box.right, image.width)}, y ${px(box.top, image.height)}–${px(box.bottom, image.height)} px`;
}

/**
 * The ground-truth boxes as a list (as Label Studio and CVAT list regions): each box's label is
 * changed here, on that box alone, and a box is selected or removed by its row.
 */
export function TruthList({
  boxes,
  image,
  labels,
  selected,
  onSelect,
  onRelabel,
  onRemove,
}: {
  boxes: TruthBox[];
  image: Size | null;
  labels: readonly string[];
  selected: number | null;
  onSelect: (i: number) => void;
  onRelabel: (i: number, label: string | undefined) => void;
  onRemove: (i: number) => void;
}) {
  return (
    <div className="truth-list">
      <p className="muted small box-legend">
        <span>
          {boxes.length} ground-truth box{boxes.length === 1 ? '' : 'es'}
        </span>
        <span>dashed: ground truth · solid: the model's answer</span>
      </p>
      {boxes.length > 0 ? (
        <ul className="plain-list region-list" aria-label="Ground-truth boxes">
          {boxes.map((b, i) => (
            <li key={i} aria-current={i === selected ? 'true' : undefined}>
              <span className="swatch" style={{ background: colourOf(b.label, labels) }} aria-hidden="true" />
              <button type="button" className="link-button" onClick={() => onSelect(i)}>
                Box {i + 1}
                <span className="muted small mono"> {boxPlace(b, image)}</span>
              </button>
              <select value={b.label ?? ''} onChange={(e) => onRelabel(i, e.target.value || undefined)} aria-label={`Label of box ${i + 1}`}>
                <option value="">(none)</option>
                {[...new Set([...labels, ...(b.label ? [b.label] : [])])].map((l) => (
                  <option key={l} value={l}>
                    {l}
                  </option>
                ))}
              </select>
              <button type="button" className="secondary small" onClick={() => onRemove(i)} aria-label={`Remove box ${i + 1}`}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
