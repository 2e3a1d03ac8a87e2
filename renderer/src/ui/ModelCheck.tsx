import type { ReactNode } from 'react';
import type { ModelSummary } from '../../../shared/schemas/inspector';
import { kindTag, modelKind } from '../lib/answering';

/** A model as a checkbox, checked while among `chosen`, with its kind; `children` (a note) follow. */
export function ModelCheck({
  model: m,
  chosen,
  onChosen,
  children,
}: {
  model: ModelSummary;
  chosen: string[];
  onChosen: (ids: string[]) => void;
  children?: ReactNode;
}) {
  return (
    <label className="inline-check" title={modelKind(m)}>
      <input
        type="checkbox"
        aria-label={m.id}
        checked={chosen.includes(m.id)}
        onChange={(e) => onChosen(e.target.checked ? [...chosen, m.id] : chosen.filter((c) => c !== m.id))}
      />
      <span className="mono small">{m.id}</span> <span className={`model-kind model-kind-${m.answering}`}>{kindTag(m)}</span>
      {children}
    </label>
  );
}
