/** The attributes that tie a field to its help and, when it has one, its problem (read after its label). */
export function described(id: string, problem: string | undefined) {
  return { 'aria-describedby': problem ? `${id}-help ${id}-problem` : `${id}-help`, 'aria-invalid': problem ? true : undefined };
}

/** A field's help line and, under it, what the server (or the form) said is wrong with it. */
export function RuleFieldNote({ id, help, problem }: { id: string; help: string; problem: string | undefined }) {
  return (
    <>
      <span id={`${id}-help`} className="field-help">
        {help}
      </span>
      {problem ? (
        <span id={`${id}-problem`} className="text-error small">
          {problem}
        </span>
      ) : null}
    </>
  );
}
