import type { Answer, Box } from '../../../../shared/schemas/answer';
import { probability } from '../../ui/format';
import { methodText } from '../../lib/answering';

function Bar({ label, value, chosen }: { label: string; value: number; chosen?: boolean }) {
  return (
    <div className={`bar-row ${chosen ? 'chosen' : ''}`}>
      <span className="bar-label">
        {label}
        {chosen ? <span className="visually-hidden"> (chosen)</span> : null}
      </span>
      <span className="bar-track" aria-hidden="true">
        <span className="bar-fill" style={{ width: `${Math.round(value * 1000) / 10}%` }} />
      </span>
      <span className="bar-value">{probability(value)}</span>
    </div>
  );
}

const guidanceText = (g: unknown) => (typeof g === 'string' ? g : JSON.stringify(g));

/** A box drawn over its image, optionally with a second (ground-truth) box. */
export function BoxOverlay({ image, box, truth, label }: { image: string; box: Box | null; truth?: Box | null; label: string }) {
  const rect = (b: Box, cls: string) => (
    <rect
      className={cls}
      x={b.left * 100}
      y={b.top * 100}
      width={(b.right - b.left) * 100}
      height={(b.bottom - b.top) * 100}
      vectorEffect="non-scaling-stroke"
    />
  );
  return (
    <figure className="box-figure">
      <div className="box-stage">
        <img src={image} alt={label} />
        <svg viewBox="0 0 100 100" preserveAspectRatio="none" aria-hidden="true">
          {truth ? rect(truth, 'truth-box') : null}
          {box ? rect(box, 'answer-box') : null}
        </svg>
      </div>
    </figure>
  );
}

/** One typed answer, as a gauge, bars, a distribution, or a box over the image. */
export function AnswerView({ name, answer, method, image }: { name: string; answer: Answer; method?: string | undefined; image?: string | undefined }) {
  return (
    <section className="answer" aria-label={`Answer ${name}`}>
      <header>
        <strong>{name}</strong> <span className="badge">{answer.type}</span>
        {method ? <span className="muted small"> · measured by {methodText(method)}</span> : null}
      </header>
      {answer.type === 'noul' ? (
        <div className="gauge" role="meter" aria-valuemin={0} aria-valuemax={1} aria-valuenow={answer.noul} aria-label={`P(true) for ${name}`}>
          <span className="gauge-fill" style={{ width: `${answer.noul * 100}%` }} />
          <span className="gauge-text">P(true) = {probability(answer.noul)}</span>
        </div>
      ) : null}
      {answer.type === 'choice' ? (
        <div>
          {answer.probabilities ? (
            Object.entries(answer.probabilities).map(([option, p]) => <Bar key={option} label={option} value={p} chosen={option === answer.choice} />)
          ) : (
            <p>Chosen: {answer.choice}</p>
          )}
          {answer.confidence !== undefined ? <p className="muted small">Confidence {probability(answer.confidence)}</p> : null}
        </div>
      ) : null}
      {answer.type === 'score' ? (
        <div>
          <p>
            Expected level <strong>{answer.score.toFixed(2)}</strong>
            {answer.probabilities ? ` of ${Object.keys(answer.probabilities).length - 1}` : ''}
          </p>
          {answer.probabilities
            ? Object.entries(answer.probabilities).map(([level, p]) => (
                <Bar key={level} label={`${level}${answer.legend?.[level] !== undefined ? ` · ${guidanceText(answer.legend[level])}` : ''}`} value={p} />
              ))
            : null}
        </div>
      ) : null}
      {answer.type === 'box' ? (
        <div>
          {image ? <BoxOverlay image={image} box={answer.box} label={`Image with the box for ${name}`} /> : null}
          <p className="mono small">
            top {answer.box.top.toFixed(3)} · left {answer.box.left.toFixed(3)} · bottom {answer.box.bottom.toFixed(3)} · right {answer.box.right.toFixed(3)}
          </p>
        </div>
      ) : null}
    </section>
  );
}
