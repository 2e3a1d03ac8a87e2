/** A choice among the question sets (none listed while they load), named by `label`. */
export function SetSelect({
  sets,
  value,
  onChange,
  label,
}: {
  sets: readonly { id: string; name: string }[] | undefined;
  value: string;
  onChange: (id: string) => void;
  label: string;
}) {
  return (
    <select value={value} onChange={(e) => onChange(e.target.value)} aria-label={label}>
      {(sets ?? []).map((s) => (
        <option key={s.id} value={s.id}>
          {s.name}
        </option>
      ))}
    </select>
  );
}
