import { useQuery } from '@tanstack/react-query';
import { setsQuery } from '../question-sets';

/** The labelled picker of saved question sets, as the import and run forms show it. */
export function QuestionSetSelect({ value, onChange, label }: { value: string; onChange: (id: string) => void; label: string }) {
  const sets = useQuery(setsQuery());
  return (
    <label>
      Question set
      <select value={value} onChange={(e) => onChange(e.target.value)} aria-label={label}>
        {(sets.data ?? []).map((s) => (
          <option key={s.id} value={s.id}>
            {s.name}
          </option>
        ))}
      </select>
    </label>
  );
}
