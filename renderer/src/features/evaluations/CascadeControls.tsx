import type { EvalRun } from '../../../../shared/schemas/evaluation';
import type { CascadeFamily } from '../../../../shared/schemas/cascade-curve';

import type { CascadeScope as Scope } from './api';

/** One of the run's variants, by its place in the run. */
function VariantSelect({ run, value, onChange, label }: { run: EvalRun; value: number; onChange: (i: number) => void; label: string }) {
  return (
    <select value={value} onChange={(e) => onChange(Number(e.target.value))} aria-label={label}>
      {run.variants.map((v, i) => (
        <option key={v.name} value={i}>
          {v.name}
        </option>
      ))}
    </select>
  );
}

/** What the condition's figure is, beside the control that chooses it (docs/API.md, What the answers mean). */
const FIGURE_HELP: Record<CascadeFamily, string> = {
  confidenceBelow:
    "confidenceBelow reads an answer's confidence: 1 − H/ln n, how concentrated its probabilities are over its n options or levels (1 when one has all of it, 0 when all are equal). It is not the probability of being right: 0.04 on a four-option choice is an answer spread almost evenly.",
  probabilityBetween:
    "probabilityBetween reads a yes/no answer's P(yes): the band around 0.5 the threshold gives (0.2: between 0.3 and 0.7) is where it is unsure.",
};

interface Props {
  run: EvalRun;
  first: number;
  second: number;
  onFirst: (i: number) => void;
  onSecond: (i: number) => void;
  scope: Scope;
  onScope: (scope: Scope) => void;
}

/** The cascade's two models and the condition that sends an answer on, with what the condition's figure means. */
export function CascadeControls({ run, first, second, onFirst, onSecond, scope, onScope }: Props) {
  const questions = run.questions as Record<string, { type: string }>;
  const kinds = Object.values(questions).map((q) => q.type);
  const scopeValue = 'question' in scope ? `q:${scope.question}` : `f:${scope.family}`;
  const family: CascadeFamily = 'family' in scope ? scope.family : questions[scope.question]?.type === 'noul' ? 'probabilityBetween' : 'confidenceBelow';
  return (
    <>
      <div className="toolbar">
        <label>
          First <VariantSelect run={run} value={first} onChange={onFirst} label="First model" />
        </label>
        <label>
          then <VariantSelect run={run} value={second} onChange={onSecond} label="Second model" />
        </label>
        <label>
          when{' '}
          <select
            value={scopeValue}
            aria-label="Condition reads"
            aria-describedby="cascade-figure-help"
            onChange={(e) => {
              const v = e.target.value;
              onScope(v.startsWith('q:') ? { question: v.slice(2) } : { family: v.slice(2) as CascadeFamily });
            }}
          >
            {kinds.some((k) => k !== 'noul') ? <option value="f:confidenceBelow">any choice, score or box answer is unsure (confidenceBelow)</option> : null}
            {kinds.includes('noul') ? <option value="f:probabilityBetween">any yes/no answer is near 0.5 (probabilityBetween)</option> : null}
            {Object.entries(questions).map(([name, q]) => (
              <option key={name} value={`q:${name}`}>
                {name} is unsure ({q.type === 'noul' ? 'probabilityBetween' : 'confidenceBelow'})
              </option>
            ))}
          </select>
        </label>
      </div>
      <p className="muted small" id="cascade-figure-help" data-testid="cascade-figure-help">
        {FIGURE_HELP[family]}
      </p>
    </>
  );
}
