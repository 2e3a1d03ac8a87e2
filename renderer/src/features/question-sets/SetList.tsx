import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { EmptyState, Panel } from '../../ui/components';
import { setsQuery, useDeleteSet, useDuplicateSet, useRestoreSet } from './api';

/** The saved sets: open one, start a new one, duplicate or delete one (with an undo). */
export function SetList({ selected, onSelect, onNew }: { selected: string | undefined; onSelect: (id: string) => void; onNew: () => void }) {
  const sets = useQuery(setsQuery());
  const [undo, setUndo] = useState<{ id: string; name: string } | null>(null);
  const remove = useDeleteSet(setUndo);
  const restore = useRestoreSet(() => setUndo(null));
  const duplicate = useDuplicateSet(onSelect);
  return (
    <Panel
      title="Sets"
      aside={
        <button type="button" onClick={onNew}>
          New set
        </button>
      }
    >
      {undo ? (
        <div className="notice notice-ok" role="status">
          Deleted “{undo.name}”.
          <button type="button" className="secondary" onClick={() => restore.mutate(undo.id)}>
            Undo
          </button>
        </div>
      ) : null}
      {sets.data && sets.data.length === 0 ? (
        <EmptyState title="No question sets yet">Write one on the right, or import a DecisionsRequest JSON file.</EmptyState>
      ) : null}
      <ul className="set-list">
        {(sets.data ?? []).map((s) => (
          <li key={s.id} aria-current={s.id === selected ? 'true' : undefined}>
            <button type="button" className="link-button" data-set-id={s.id} onClick={() => onSelect(s.id)}>
              <strong>{s.name}</strong> {s.sample ? <span className="badge badge-muted">sample</span> : null}
              <span className="muted small">
                {s.model} · {s.question_count} question{s.question_count === 1 ? '' : 's'}
              </span>
            </button>
            <span className="set-actions">
              <button type="button" className="secondary" onClick={() => duplicate.mutate(s.id)} aria-label={`Duplicate ${s.name}`}>
                Duplicate
              </button>
              <button type="button" className="secondary" onClick={() => remove.mutate(s)} aria-label={`Delete ${s.name}`}>
                Delete
              </button>
            </span>
          </li>
        ))}
      </ul>
    </Panel>
  );
}
