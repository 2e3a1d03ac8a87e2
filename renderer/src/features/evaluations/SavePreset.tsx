import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { EvalRun } from '../../../../shared/schemas/evaluation';
import type { CascadeCurve, CascadePoint } from '../../../../shared/schemas/cascade-curve';
import { call } from '../../transport/transport';
import { ErrorNotice } from '../../ui/components';
import { fromPoint } from './adopt';

/** Saves the picked threshold as a named preset: the second model, the first, the condition and where it came from. */
export function SavePreset({ run, curve, point }: { run: EvalRun; curve: CascadeCurve; point: CascadePoint }) {
  const client = useQueryClient();
  const [name, setName] = useState('');
  const save = useMutation({
    mutationFn: () =>
      call('cascadePresets.save', {
        name: name.trim(),
        model: curve.second.model,
        first_model: curve.first.model,
        ...fromPoint(run, curve, point),
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['cascadePresets'] }),
  });
  return (
    <form
      className="toolbar"
      onSubmit={(e) => {
        e.preventDefault();
        if (name.trim()) save.mutate();
      }}
    >
      <label>
        Preset name <input value={name} onChange={(e) => setName(e.target.value)} placeholder="e.g. topic-unsure" maxLength={100} aria-label="Preset name" />
      </label>
      <button type="submit" disabled={!name.trim() || save.isPending}>
        Save as preset
      </button>
      {save.isSuccess ? (
        <span className="small" role="status">
          Saved “{save.data.name}”: requests can name it.
        </span>
      ) : null}
      {save.error ? <ErrorNotice error={save.error} title="Not saved" /> : null}
    </form>
  );
}
