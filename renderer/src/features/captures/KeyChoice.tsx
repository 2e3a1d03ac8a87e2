import { useQuery } from '@tanstack/react-query';
import { apiKeysQuery } from '../settings';
import { described, RuleFieldNote } from './RuleFieldNote';

/** The API keys a rule listens to, by name: none ticked matches every key. Revoked keys send nothing, so they are not offered. */
export function KeyChoice({ value, onChange, problem }: { value: readonly string[]; onChange: (ids: string[]) => void; problem: string | undefined }) {
  const keys = useQuery(apiKeysQuery());
  const live = (keys.data ?? []).filter((k) => k.revoked_at === null);
  const toggle = (id: string, on: boolean) => onChange(on ? [...value, id] : value.filter((k) => k !== id));
  return (
    <fieldset className="pref-field capture-keys" {...described('capture-keys', problem)}>
      <legend className="pref-label">API keys</legend>
      {live.length === 0 ? <span className="muted small">No API key yet: create one above.</span> : null}
      {live.map((k) => (
        <label key={k.id} className="inline-check">
          <input type="checkbox" checked={value.includes(k.id)} onChange={(e) => toggle(k.id, e.target.checked)} /> {k.name}
          <span className="muted small mono">{k.label}</span>
        </label>
      ))}
      <RuleFieldNote id="capture-keys" help="Optional; none ticked: requests with any key." problem={problem} />
    </fieldset>
  );
}
