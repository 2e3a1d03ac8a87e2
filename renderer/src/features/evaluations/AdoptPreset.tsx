import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CascadePreset } from '../../../../shared/schemas/cascade-preset';
import type { CascadeCurve, CascadePoint } from '../../../../shared/schemas/cascade-curve';
import type { EvalRun } from '../../../../shared/schemas/evaluation';
import { call } from '../../transport/transport';
import { ErrorNotice } from '../../ui/components';
import { fromPoint, pointText } from './adopt';

interface Props {
  run: EvalRun;
  curve: CascadeCurve;
  /** the threshold picked on the curve */
  point: CascadePoint;
  /** the presets this curve's threshold can move */
  presets: readonly CascadePreset[];
  chosen: CascadePreset | null;
  onChoose: (name: string) => void;
  /** where the chosen preset stands on this curve today, when the curve has its condition */
  current: CascadePoint | null;
}

/** Where the preset's threshold came from, when the curve does not hold its condition. */
function recorded(preset: CascadePreset): string {
  return preset.source
    ? `its threshold came from another curve (${pointText(preset.source)}; ${preset.source.first} then ${preset.source.second})`
    : 'its condition is not a point of this curve';
}

/** Moves a saved preset to the picked threshold, showing where it stands now and where it would go; the change is audited with both points. */
export function AdoptPreset({ run, curve, point, presets, chosen, onChoose, current }: Props) {
  const client = useQueryClient();
  const adopt = useMutation({
    mutationFn: (preset: CascadePreset) =>
      call('cascadePresets.save', {
        name: preset.name,
        model: preset.model,
        first_model: preset.first_model,
        ...fromPoint(run, curve, point),
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['cascadePresets'] }),
  });
  if (presets.length === 0) return null;
  const same = current !== null && current.threshold === point.threshold;
  return (
    <div className="adopt-preset" data-testid="adopt-preset">
      <label>
        Adopt into{' '}
        <select value={chosen?.name ?? ''} onChange={(e) => onChoose(e.target.value)}>
          {presets.map((p) => (
            <option key={p.name} value={p.name}>
              {p.name}
            </option>
          ))}
        </select>
      </label>
      {chosen ? (
        <ul className="plain-list small" aria-label="The preset's threshold now and adopted">
          <li>Now: {current ? `${pointText(current)} (the square on the chart)` : recorded(chosen)}</li>
          <li>Adopted: {pointText(point)} (the ring)</li>
        </ul>
      ) : null}
      <button type="button" disabled={!chosen || same || adopt.isPending} onClick={() => chosen && adopt.mutate(chosen)}>
        {same ? 'Already the preset’s threshold' : `Adopt threshold ${point.threshold}`}
      </button>
      {adopt.isSuccess ? (
        <span className="small" role="status">
          “{adopt.data.name}” now escalates at threshold {point.threshold}; the change and the point it replaced are in the audit log.
        </span>
      ) : null}
      {adopt.error ? <ErrorNotice error={adopt.error} title="Not adopted" /> : null}
    </div>
  );
}
