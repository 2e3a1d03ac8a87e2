import type { Question } from '../../../../shared/schemas/question';
import { expectedChoices, type Example } from './examples';

interface Props {
  example: Example;
  /** the set's own content (named, not editable) rather than an example */
  own: boolean;
  /** the example's place among the examples (the set's own content is not counted) */
  n: number;
  /** the questions asked of it, with the set's definition of each */
  questions: string[];
  definitions: Record<string, Question>;
  onText: (text: string) => void;
  onExpected: (question: string, value: string) => void;
  onRemove: () => void;
}

/** An example's content (or the set's own) and, per question, what it should answer. */
export function TryExample({ example: e, own, n, questions, definitions, onText, onExpected, onRemove }: Props) {
  const called = own ? "this set's content" : `example ${n}`;
  return (
    <td className="try-example">
      {own ? (
        <p className="small">
          <strong>This set&apos;s content</strong>
        </p>
      ) : (
        <textarea rows={2} value={e.text} aria-label={`Example ${n}`} onChange={(ev) => onText(ev.target.value)} placeholder="Content to judge" />
      )}
      <div className="try-expected">
        {questions.map((q) => {
          const choices = expectedChoices(definitions[q]!);
          if (choices.length === 0) return null;
          return (
            <label key={q} className="small">
              {q}
              <select value={e.expected[q] ?? ''} onChange={(ev) => onExpected(q, ev.target.value)} aria-label={`Expected ${q} of ${called}`}>
                <option value="">not said</option>
                {choices.map(([value, words]) => (
                  <option key={value} value={value}>
                    {words}
                  </option>
                ))}
              </select>
            </label>
          );
        })}
        {!own ? (
          <button type="button" className="secondary small" onClick={onRemove} aria-label={`Remove example ${n}`}>
            Remove
          </button>
        ) : null}
      </div>
    </td>
  );
}
