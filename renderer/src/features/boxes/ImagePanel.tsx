import type { BoxItem } from '../../../../shared/schemas/inspector';
import { ErrorNotice, Panel } from '../../ui/components';
import { BoxEditor } from './BoxEditor';
import { ReviewBar } from './ReviewBar';
import { answersOf } from './review';
import { staleLabel } from './stale';
import type { useBoxReview } from './use-box-review';

interface Props {
  current: BoxItem;
  review: ReturnType<typeof useBoxReview>;
  /** legacy images (added before datasets) can be removed here */
  legacy: boolean;
  /** the editor starts afresh for another dataset, image or truth import */
  editorKey: string;
  names: string[];
  threshold: number;
  autoAdvance: boolean;
  onAutoAdvance: (on: boolean) => void;
  onRemoved: () => void;
}

/** The image under review: its truth drawn in the editor beside its answers, verdicts and notes. */
export function ImagePanel({ current, review, legacy, editorKey, names, threshold, autoAdvance, onAutoAdvance, onRemoved }: Props) {
  const { image } = review;
  return (
    <Panel
      title={current.name}
      aside={
        <>
          {current.stale ? (
            <span className="stale-pill" data-testid="stale-pill">
              Verdict stale: {staleLabel(current.stale_reason)}
            </span>
          ) : null}
          {legacy ? (
            <button
              type="button"
              className="secondary"
              onClick={() => {
                review.remove.mutate(current.id);
                onRemoved();
              }}
            >
              Remove image
            </button>
          ) : null}
        </>
      }
    >
      <div className="workbench-split">
        {image.data ? (
          <BoxEditor
            key={editorKey}
            image={image.data}
            name={current.name}
            size={current.width && current.height ? { width: current.width, height: current.height } : null}
            truth={current.truth}
            answers={answersOf(current)}
            labels={names}
            nextLabel={review.nextLabel}
            onNextLabel={(l) => review.setNextLabel(l ?? '')}
            hidden={review.hidden}
            focus={review.focused}
            onChange={(truth) => review.update.mutate({ id: current.id, truth })}
          />
        ) : image.error ? (
          <ErrorNotice error={image.error} title="The image could not be loaded" />
        ) : (
          <div className="box-viewport" aria-busy="true" />
        )}
        <ReviewBar
          item={current}
          threshold={threshold}
          labels={names}
          perQuestion={review.perQuestion}
          focus={review.focused}
          onFocus={review.setFocus}
          onVerdict={review.verdict}
          onNote={review.note}
          hidden={review.hidden}
          onToggleHidden={review.toggleHidden}
          autoAdvance={autoAdvance}
          onAutoAdvance={onAutoAdvance}
          onStep={review.step}
          models={review.runModels}
          runImage={review.runImage}
        />
      </div>
      {review.runOnImage.error ? <ErrorNotice error={review.runOnImage.error} title="Not run on this image" /> : null}
    </Panel>
  );
}
