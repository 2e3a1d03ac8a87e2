import { LOW_CONFIDENCE, type ResultFilter } from './api';

export const ALL_QUESTIONS = '\u0000all';
const FILTERS: { id: ResultFilter; label: string; title?: string }[] = [
  { id: 'all', label: 'All' },
  { id: 'wrong', label: 'Wrong', title: 'Items where any model got any question wrong' },
  { id: 'disagree', label: 'Models disagree', title: 'Items where the models gave different answers to a question' },
  { id: 'low', label: `Low confidence (< ${LOW_CONFIDENCE})`, title: `Items where any model answered any question with a confidence below ${LOW_CONFIDENCE}` },
];

/** Which items the results grid shows, how many there are, and which questions' columns. */
export function MatrixFilters({
  filter,
  onFilter,
  total,
  questions,
  only,
  fits,
  onOnly,
  confidence = true,
}: {
  filter: ResultFilter;
  onFilter: (filter: ResultFilter) => void;
  total: number;
  questions: readonly string[];
  only: string | null;
  fits: boolean;
  onOnly: (question: string) => void;
  /** Whether any question's answers carry a confidence (box answers carry none): else no Low confidence filter. */
  confidence?: boolean;
}) {
  return (
    <div className="segmented" role="group" aria-label="Show items">
      {FILTERS.filter((f) => confidence || f.id !== 'low').map((f) => (
        <button key={f.id} type="button" aria-pressed={filter === f.id} onClick={() => onFilter(f.id)} title={f.title}>
          {f.label}
        </button>
      ))}
      <span className="muted small">{total.toLocaleString('en-US')} items</span>
      {questions.length > 1 ? (
        <label className="small matrix-questions">
          Questions
          <select value={only ?? ALL_QUESTIONS} onChange={(e) => onOnly(e.target.value)} aria-label="Questions shown">
            <option value={ALL_QUESTIONS}>all{fits ? '' : ' (narrow columns)'}</option>
            {questions.map((q) => (
              <option key={q} value={q}>
                {q}
              </option>
            ))}
          </select>
        </label>
      ) : null}
    </div>
  );
}
