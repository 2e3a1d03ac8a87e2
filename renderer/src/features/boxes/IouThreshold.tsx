import type { BoxItem } from '../../../../shared/schemas/inspector';
import { worstIou } from './review';

/** The IoU an answer passes at, and how many scored images pass on every question at it. */
export function IouThreshold({ items, threshold, onThreshold }: { items: readonly BoxItem[]; threshold: number; onThreshold: (t: number) => void }) {
  const scored = items.map((i) => worstIou(i)).filter((s): s is number => s !== null);
  return (
    <div className="toolbar iou-threshold">
      <label htmlFor="iou-threshold">Pass at IoU ≥ {threshold.toFixed(2)}</label>
      <input
        id="iou-threshold"
        type="range"
        min={0.1}
        max={0.95}
        step={0.05}
        value={threshold}
        onChange={(e) => onThreshold(Number(e.target.value))}
        aria-valuetext={`pass at IoU ${threshold.toFixed(2)} or more`}
      />
      <span className="muted small">
        {scored.length > 0
          ? `${scored.filter((x) => x >= threshold).length} of ${scored.length} scored images pass on every question · mean of the lowest IoU ${(scored.reduce((a, b) => a + b, 0) / scored.length).toFixed(3)}`
          : 'No image has both a ground truth and an answer yet.'}
      </span>
    </div>
  );
}
