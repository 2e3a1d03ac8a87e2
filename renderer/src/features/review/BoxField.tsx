import { useCallback } from 'react';
import type { Edges } from '../../../../shared/geometry/iou';
import type { Question } from '../../../../shared/schemas/question';
import type { TruthBox } from '../../../../shared/schemas/inspector';
import { answerText } from '../../lib/answer-text';
import { BoxEditor } from '../boxes';
import { guidanceText } from './review-answers';

interface Props {
  name: string;
  question: Question;
  /** the item's image (a data URL), or null when it kept none */
  image: string | null;
  value: Edges | undefined;
  /** the model's answer, shown only when the review is not blind */
  prediction: unknown;
  onChoose: (value: Edges) => void;
  /** every box removed: the question is unanswered again */
  onClear: () => void;
  onFocus: () => void;
}

const NO_HIDDEN: ReadonlySet<string> = new Set();
const edgesOf = (b: TruthBox): Edges => ({ top: b.top, left: b.left, bottom: b.bottom, right: b.right });

/**
 * A box question on the Boxes workbench, inside the review: the reviewer draws the box (drag, or N
 * then the arrows), its last box is the answer. The model's box is drawn beside it only once the
 * review is not blind. An item that kept no image can be flagged or skipped only.
 */
export function BoxField({ name, question, image, value, prediction, onChoose, onClear, onFocus }: Props) {
  const onChange = useCallback(
    (boxes: TruthBox[]) => {
      const last = boxes.at(-1);
      if (last) onChoose(edgesOf(last));
      else onClear();
    },
    [onChoose, onClear],
  );
  const model = prediction as { type?: string; box?: Edges } | undefined;
  return (
    <fieldset className="review-question review-box" onFocus={onFocus}>
      <legend>
        <span className="mono">{name}</span> {guidanceText(question.instructions)}
      </legend>
      {image === null ? (
        <p className="small muted">This item kept no image to draw on: flag it (F) or skip it (S).</p>
      ) : (
        <BoxEditor
          image={image}
          name={name}
          size={null}
          truth={value ? [{ ...value, label: name }] : []}
          answers={model?.type === 'box' && model.box ? { [name]: model.box } : {}}
          labels={[name]}
          nextLabel={name}
          onNextLabel={() => undefined}
          hidden={NO_HIDDEN}
          focus={name}
          onChange={onChange}
        />
      )}
      <p className="small" data-testid="box-answer">
        {value ? `Your box: ${answerText({ type: 'box', box: value })}` : 'No box drawn yet.'}
        {model?.type === 'box' ? ` Model: ${answerText(model, value)}.` : ''}
      </p>
    </fieldset>
  );
}
