import { described, RuleFieldNote } from './RuleFieldNote';

interface NumberFieldProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  min: number;
  max: number;
  /** the schema's default, shown while the field is empty */
  placeholder: string;
  help: string;
  problem: string | undefined;
}

/** A number typed as text: empty leaves the default to the schema, anything else the core checks. */
export function NumberField({ id, label, value, onChange, min, max, placeholder, help, problem }: NumberFieldProps) {
  return (
    <div className="pref-field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="number"
        min={min}
        max={max}
        step="any"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        placeholder={placeholder}
        {...described(id, problem)}
      />
      <RuleFieldNote id={id} help={help} problem={problem} />
    </div>
  );
}
