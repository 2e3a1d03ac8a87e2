interface Props {
  metric: string;
  kind: 'accuracy' | 'cost';
  onKind: (kind: 'accuracy' | 'cost') => void;
  accuracyPercent: number;
  onAccuracyPercent: (percent: number) => void;
  ceiling: number;
  onCeiling: (usd: number) => void;
}

/** The target a threshold is picked for: at least an accuracy at the least cost, or the best under a cost per item. */
export function CascadeTargetInputs({ metric, kind, onKind, accuracyPercent, onAccuracyPercent, ceiling, onCeiling }: Props) {
  return (
    <div className="toolbar cascade-target">
      <label>
        <input type="radio" name="cascade-target" checked={kind === 'accuracy'} onChange={() => onKind('accuracy')} /> At least
      </label>
      <input
        type="number"
        min={0}
        max={100}
        step={0.1}
        value={accuracyPercent}
        onChange={(e) => {
          onAccuracyPercent(Number(e.target.value));
          onKind('accuracy');
        }}
        aria-label="Target accuracy in percent"
        className="narrow"
      />
      <span>% {metric} at the least cost</span>
      <label>
        <input type="radio" name="cascade-target" checked={kind === 'cost'} onChange={() => onKind('cost')} /> or the best at most $
      </label>
      <input
        type="number"
        min={0}
        step={0.0001}
        value={ceiling}
        onChange={(e) => {
          onCeiling(Number(e.target.value));
          onKind('cost');
        }}
        aria-label="Cost ceiling in USD per item"
        className="narrow"
      />
      <span>per item</span>
    </div>
  );
}
