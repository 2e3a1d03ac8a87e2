import type { ValidationProblem } from '../../../../shared/contract/result';
import { Panel } from '../../ui/components';
import { newQuestion, type QuestionDraft } from './draft';
import { FieldProblems, QuestionEditor } from './QuestionEditor';

/** The set's questions, each in its editor, with the problems shown for them. */
export function QuestionsPanel({
  questions,
  problems,
  onChange,
}: {
  questions: QuestionDraft[];
  problems: ValidationProblem[];
  onChange: (questions: QuestionDraft[]) => void;
}) {
  return (
    <Panel
      title={`Questions (${questions.length})`}
      aside={
        <button type="button" className="secondary" onClick={() => onChange([...questions, newQuestion('noul', `q${questions.length + 1}`)])}>
          Add question
        </button>
      }
    >
      {questions.map((q) => (
        <QuestionEditor
          key={q.key}
          question={q}
          problems={problems}
          onChange={(next) => onChange(questions.map((x) => (x.key === q.key ? next : x)))}
          onRemove={() => onChange(questions.filter((x) => x.key !== q.key))}
        />
      ))}
      <FieldProblems problems={problems.filter((p) => p.path === 'questions')} />
    </Panel>
  );
}
