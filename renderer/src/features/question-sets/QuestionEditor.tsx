import type { ValidationProblem } from '../../../../shared/contract/result';
import { newKey, problemsAt, type QuestionDraft } from './draft';
import { showProblem } from './problem-text';

function FieldProblems({ problems }: { problems: ValidationProblem[] }) {
  if (problems.length === 0) return null;
  return (
    <ul className="field-problems" role="alert">
      {problems.map((p) => {
        const shown = showProblem(p);
        return (
          <li key={`${p.path}:${p.message}`} title={`${p.path}: ${p.message}`}>
            <strong>{shown.field}:</strong> {shown.fix}
          </li>
        );
      })}
    </ul>
  );
}

/** Moves item i of a list by delta (keyboard and buttons share it). */
function move<T>(list: T[], i: number, delta: number): T[] {
  const j = i + delta;
  if (j < 0 || j >= list.length) return list;
  const next = [...list];
  [next[i], next[j]] = [next[j]!, next[i]!];
  return next;
}

interface PartProps {
  q: QuestionDraft;
  onChange: (q: QuestionDraft) => void;
  /** The id of one of this question's fields. */
  id: (s: string) => string;
}

/** Name, type and Remove. */
function QuestionHead({ q, onChange, id, onRemove }: PartProps & { onRemove: () => void }) {
  return (
    <div className="question-head">
      <label htmlFor={id('name')}>Name</label>
      <input id={id('name')} value={q.name} onChange={(e) => onChange({ ...q, name: e.target.value })} size={14} />
      <label htmlFor={id('type')}>Type</label>
      <select id={id('type')} value={q.type} onChange={(e) => onChange({ ...q, type: e.target.value as QuestionDraft['type'] })}>
        <option value="noul">yes/no (noul)</option>
        <option value="choice">choice</option>
        <option value="score">score</option>
        <option value="box">box</option>
      </select>
      <button type="button" className="secondary" onClick={onRemove} aria-label={`Remove question ${q.name}`}>
        Remove
      </button>
    </div>
  );
}

/** A yes/no question's optional "true when" and "false when". */
function NoulFields({ q, onChange, id }: PartProps) {
  return (
    <div className="two-cols">
      <div>
        <label htmlFor={id('true')}>True when (optional)</label>
        <input id={id('true')} value={q.trueWhen} onChange={(e) => onChange({ ...q, trueWhen: e.target.value })} />
      </div>
      <div>
        <label htmlFor={id('false')}>False when (optional)</label>
        <input id={id('false')} value={q.falseWhen} onChange={(e) => onChange({ ...q, falseWhen: e.target.value })} />
      </div>
    </div>
  );
}

/** A choice question's options, each a name and optional guidance. */
function ChoiceOptions({ q, onChange }: Omit<PartProps, 'id'>) {
  const edit = (key: string, patch: { name?: string; guidance?: string }) =>
    onChange({ ...q, options: q.options.map((x) => (x.key === key ? { ...x, ...patch } : x)) });
  return (
    <div>
      <div className="small muted">Options (name, optional guidance)</div>
      {q.options.map((o, i) => (
        <div className="row-inline" key={o.key}>
          <input aria-label={`Option ${i + 1} name`} value={o.name} placeholder="name" onChange={(e) => edit(o.key, { name: e.target.value })} />
          <input
            aria-label={`Option ${i + 1} guidance`}
            value={o.guidance}
            placeholder="guidance (optional)"
            onChange={(e) => edit(o.key, { guidance: e.target.value })}
          />
          <button
            type="button"
            className="secondary"
            aria-label={`Remove option ${i + 1}`}
            onClick={() => onChange({ ...q, options: q.options.filter((x) => x.key !== o.key) })}
          >
            ×
          </button>
        </div>
      ))}
      <button type="button" className="secondary" onClick={() => onChange({ ...q, options: [...q.options, { key: newKey(), name: '', guidance: '' }] })}>
        Add option
      </button>
    </div>
  );
}

/** One level of a score: dragged, or moved with Alt+↑/↓ or its buttons, to reorder. */
function LevelRow({ q, onChange, i }: Omit<PartProps, 'id'> & { i: number }) {
  const l = q.levels[i]!;
  const moveTo = (levels: QuestionDraft['levels']) => onChange({ ...q, levels });
  return (
    <li
      draggable
      onDragStart={(e) => e.dataTransfer.setData('text/level', String(i))}
      onDragOver={(e) => e.preventDefault()}
      onDrop={(e) => {
        e.preventDefault();
        const from = Number(e.dataTransfer.getData('text/level'));
        if (Number.isInteger(from)) moveTo(move(q.levels, from, i - from));
      }}
    >
      <span className="level-index">{i}</span>
      <input
        aria-label={`Level ${i}`}
        value={l.text}
        onChange={(e) => moveTo(q.levels.map((x) => (x.key === l.key ? { ...x, text: e.target.value } : x)))}
        onKeyDown={(e) => {
          if (e.altKey && (e.key === 'ArrowUp' || e.key === 'ArrowDown')) {
            e.preventDefault();
            moveTo(move(q.levels, i, e.key === 'ArrowUp' ? -1 : 1));
          }
        }}
      />
      <button type="button" className="secondary" aria-label={`Move level ${i} up`} disabled={i === 0} onClick={() => moveTo(move(q.levels, i, -1))}>
        ↑
      </button>
      <button
        type="button"
        className="secondary"
        aria-label={`Move level ${i} down`}
        disabled={i === q.levels.length - 1}
        onClick={() => moveTo(move(q.levels, i, 1))}
      >
        ↓
      </button>
      <button type="button" className="secondary" aria-label={`Remove level ${i}`} onClick={() => moveTo(q.levels.filter((x) => x.key !== l.key))}>
        ×
      </button>
    </li>
  );
}

/** A score question's levels, lowest first. */
function ScoreLevels({ q, onChange }: Omit<PartProps, 'id'>) {
  return (
    <div>
      <div className="small muted">Levels, lowest first (drag, or Alt+↑/↓ in a level, to reorder)</div>
      <ol className="levels">
        {q.levels.map((l, i) => (
          <LevelRow key={l.key} q={q} onChange={onChange} i={i} />
        ))}
      </ol>
      <button type="button" className="secondary" onClick={() => onChange({ ...q, levels: [...q.levels, { key: newKey(), text: '' }] })}>
        Add level
      </button>
    </div>
  );
}

export function QuestionEditor({
  question,
  problems,
  onChange,
  onRemove,
}: {
  question: QuestionDraft;
  problems: ValidationProblem[];
  onChange: (q: QuestionDraft) => void;
  onRemove: () => void;
}) {
  const q = question;
  const own = problemsAt(problems, `questions.${q.name}`).concat(problemsAt(problems, `questions[${JSON.stringify(q.name)}]`));
  const id = (s: string) => `${q.key}-${s}`;
  return (
    <fieldset className="question-card" aria-label={`Question ${q.name || '(unnamed)'}`}>
      <QuestionHead q={q} onChange={onChange} id={id} onRemove={onRemove} />
      <label htmlFor={id('instructions')}>Instructions (text, or JSON)</label>
      <textarea id={id('instructions')} rows={2} value={q.instructions} onChange={(e) => onChange({ ...q, instructions: e.target.value })} />
      {q.type === 'noul' ? <NoulFields q={q} onChange={onChange} id={id} /> : null}
      {q.type === 'choice' ? <ChoiceOptions q={q} onChange={onChange} /> : null}
      {q.type === 'score' ? <ScoreLevels q={q} onChange={onChange} /> : null}
      {q.type === 'box' ? <p className="small muted">Locates what the instructions describe in the first image of the state.</p> : null}
      <FieldProblems problems={own} />
    </fieldset>
  );
}

export { FieldProblems };
