import type { MonitorWindow } from '../../../../shared/schemas/capture';
import type { MonitorChoice, Subject } from './use-monitor-subject';

const WINDOWS: [MonitorWindow, string][] = [
  ['1h', 'last hour'],
  ['24h', 'last day'],
  ['7d', 'last week'],
];

function SubjectSelect({ subjects, value, onChange }: { subjects: Subject[]; value: string | null; onChange: (v: string) => void }) {
  // Nothing to watch yet: the control says so, and the window and reference can be set beforehand.
  if (value === null)
    return (
      <label>
        Watch{' '}
        <select disabled>
          <option>no capture rule yet</option>
        </select>
      </label>
    );
  const groups = (['Question sets', 'Capture rules'] as const)
    .map((g) => [g, subjects.filter((s) => s.group === g)] as const)
    .filter(([, list]) => list.length > 0);
  return (
    <label>
      Watch{' '}
      <select value={value} onChange={(e) => onChange(e.target.value)}>
        {groups.map(([group, list]) => (
          <optgroup key={group} label={group}>
            {list.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </optgroup>
        ))}
      </select>
    </label>
  );
}

/** What is watched (a saved set's rules together, or one rule), over which window, against which reference. */
export function MonitorControls({ choice }: { choice: MonitorChoice }) {
  const { subjects, subject, reference, setReference } = choice;
  return (
    <div className="toolbar monitor-controls">
      <SubjectSelect subjects={subjects} value={subject?.value ?? null} onChange={choice.setSubject} />
      <label>
        Window{' '}
        <select value={choice.window} onChange={(e) => choice.setWindow(e.target.value as MonitorWindow)}>
          {WINDOWS.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <label>
        Reference{' '}
        <select
          value={reference.kind}
          onChange={(e) => setReference(e.target.value === 'dates' ? { kind: 'dates', from: '', to: '' } : { kind: 'week-before' })}
        >
          <option value="week-before">the week before the window</option>
          <option value="dates">dates I choose</option>
        </select>
      </label>
      {reference.kind === 'dates' ? (
        <>
          <label>
            From <input type="datetime-local" step={1} value={reference.from} onChange={(e) => setReference({ ...reference, from: e.target.value })} />
          </label>
          <label>
            To <input type="datetime-local" step={1} value={reference.to} onChange={(e) => setReference({ ...reference, to: e.target.value })} />
          </label>
        </>
      ) : null}
      {choice.problem && reference.kind === 'dates' ? (
        <p className="notice notice-warn small" role="status">
          {choice.problem}
        </p>
      ) : null}
    </div>
  );
}
