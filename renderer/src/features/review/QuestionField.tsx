import type { Question } from '../../../../shared/schemas/question';
import { answerText } from '../../lib/answer-text';
import type { Edges } from '../../../../shared/geometry/iou';
import { BoxField } from './BoxField';
import { agrees, guidanceText, optionsOf, type AnswerValue } from './review-answers';

interface Props {
  name: string;
  question: Question;
  /** where the radio buttons' names start: one group per item and question */
  group: string;
  value: AnswerValue | undefined;
  current: boolean;
  /** the model's answer, shown only when the review is not blind */
  prediction: unknown;
  onChoose: (value: AnswerValue) => void;
  /** takes the answer back (a box question whose boxes were all removed) */
  onClear: () => void;
  onFocus: () => void;
}

/** A reviewer's answer to a box question. */
const isEdges = (v: AnswerValue | undefined): v is Edges => typeof v === 'object' && v !== null;

/** One question of the item: a group of radio buttons, each with the key that chooses it; a box question on the workbench. */
export function QuestionField({ name, question, group, value, current, prediction, image, onChoose, onClear, onFocus }: Props & { image: string | null }) {
  if (question.type === 'box')
    return (
      <BoxField
        name={name}
        question={question}
        image={image}
        value={isEdges(value) ? value : undefined}
        prediction={prediction}
        onChoose={onChoose}
        onClear={onClear}
        onFocus={onFocus}
      />
    );
  const predicted = prediction === undefined ? null : answerText(prediction);
  return (
    <fieldset role="radiogroup" className="review-question" data-current={current} onFocus={onFocus}>
      <legend>
        <span className="mono">{name}</span> {guidanceText(question.instructions)}
      </legend>
      <div className="review-options">
        {optionsOf(question).map((option) => (
          <label key={String(option.value)} className="review-option">
            <input type="radio" name={`${group}-${name}`} checked={value === option.value} onChange={() => onChoose(option.value)} />
            {option.key ? <kbd aria-hidden="true">{option.key.toUpperCase()}</kbd> : null}
            <span>{option.label}</span>
            {option.hint ? <span className="muted small">{option.hint}</span> : null}
          </label>
        ))}
      </div>
      {predicted !== null ? (
        <p className="small review-model" data-testid="model-answer">
          Model: <strong>{predicted}</strong>
          {agrees(value, prediction) === false ? <span className="badge badge-warn">differs</span> : null}
        </p>
      ) : null}
    </fieldset>
  );
}
