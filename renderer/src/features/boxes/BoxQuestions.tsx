import type { BoxQuestion } from './review';
import { colourOf } from './palette';

/** Problems with the box questions, in the form's words; empty when they can be run. */
export function questionProblems(questions: readonly BoxQuestion[]): string[] {
  const problems: string[] = [];
  if (questions.length === 0) problems.push('Add at least one box question.');
  questions.forEach((q, i) => {
    if (q.name.trim() === '') problems.push(`Question ${i + 1} needs a name: it is the label of its truth boxes.`);
    else if (questions.findIndex((o) => o.name.trim() === q.name.trim()) !== i)
      problems.push(`Two questions are named "${q.name.trim()}": each name labels one object.`);
    if (q.instructions.trim() === '') problems.push(`Say what "${q.name.trim() || `question ${i + 1}`}" should locate.`);
  });
  return problems;
}

/** One box question per object: its name labels the truth boxes, its instructions go to the model. */
export function BoxQuestions({ questions, onChange }: { questions: BoxQuestion[]; onChange: (next: BoxQuestion[]) => void }) {
  const set = (i: number, patch: Partial<BoxQuestion>) => onChange(questions.map((q, k) => (k === i ? { ...q, ...patch } : q)));
  const names = questions.map((q) => q.name);
  const problems = questionProblems(questions);
  return (
    <div className="box-questions">
      {questions.map((q, i) => (
        <div key={i} className="toolbar">
          <span className="swatch" style={{ background: colourOf(q.name, names) }} aria-hidden="true" />
          <label htmlFor={`box-q-name-${i}`}>Question</label>
          <input id={`box-q-name-${i}`} value={q.name} size={12} onChange={(e) => set(i, { name: e.target.value })} aria-label={`Question ${i + 1} name`} />
          <label htmlFor={`box-q-locate-${i}`}>Locate</label>
          <input
            id={`box-q-locate-${i}`}
            value={q.instructions}
            size={26}
            onChange={(e) => set(i, { instructions: e.target.value })}
            aria-label={`Question ${i + 1}: locate`}
          />
          <button
            type="button"
            className="secondary"
            disabled={questions.length === 1}
            onClick={() => onChange(questions.filter((_, k) => k !== i))}
            aria-label={`Remove question ${i + 1}`}
          >
            Remove
          </button>
        </div>
      ))}
      <div>
        <button type="button" className="secondary" onClick={() => onChange([...questions, { name: `object ${questions.length + 1}`, instructions: '' }])}>
          Add a box question
        </button>
      </div>
      {problems.length > 0 ? (
        <ul className="field-problems text-error small" aria-live="polite">
          {problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
