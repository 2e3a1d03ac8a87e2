interface Props {
  metric: string;
  kind: 'accuracy' | 'cost';
  onKind: (kind: 'accuracy' | 'cost') => void;
  accuracyPercent: number;
  onAccuracyPercent: (percent: number) => void;
  ceiling: number;
  onCeiling: (usd: number) => void;
}

type Kind = Props['kind'];

/** One kind of target: its radio button, and its number, which picks that kind when changed. */
function TargetOption({
  which,
  kind,
  onKind,
  text,
  label,
  max,
  step,
  value,
  onValue,
}: {
  which: Kind;
  kind: Kind;
  onKind: (kind: Kind) => void;
  text: string;
  label: string;
  max?: number;
  step: number;
  value: number;
  onValue: (value: number) => void;
}) {
  return (
    <>
      <label>
        <input type="radio" name="cascade-target" checked={kind === which} onChange={() => onKind(which)} />
        {` ${text}`}
      </label>
      <input
        type="number"
        min={0}
        max={max}
        step={step}
        value={value}
        onChange={(e) => {
          onValue(Number(e.target.value));
          onKind(which);
        }}
        aria-label={label}
        className="narrow"
      />
    </>
  );
}

/** The target a threshold is picked for: at least an accuracy at the least cost, or the best under a cost per item. */
export function CascadeTargetInputs({ metric, kind, onKind, accuracyPercent, onAccuracyPercent, ceiling, onCeiling }: Props) {
  return (
    <div className="toolbar cascade-target">
      <TargetOption
        which="accuracy"
        kind={kind}
        onKind={onKind}
        text="At least"
        label="Target accuracy in percent"
        max={100}
        step={0.1}
        value={accuracyPercent}
        onValue={onAccuracyPercent}
      />
      <span>% {metric} at the least cost</span>
      <TargetOption
        which="cost"
        kind={kind}
        onKind={onKind}
        text="or the best at most $"
        label="Cost ceiling in USD per item"
        step={0.0001}
        value={ceiling}
        onValue={onCeiling}
      />
      <span>per item</span>
    </div>
  );
}
