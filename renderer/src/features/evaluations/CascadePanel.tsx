import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { EvalReport, EvalRun } from '../../../../shared/schemas/evaluation';
import type { CascadeFamily, CascadeTarget } from '../../../../shared/schemas/cascade-curve';
import { pickPoint } from '../../../../shared/evaluations/cascade-pick';
import { call } from '../../transport/transport';
import { ErrorNotice, Loading } from '../../ui/components';
import { evalKeys } from './api';
import { CurveChart } from './CascadeChart';
import { CascadeTable } from './CascadeTable';
import { SavePreset } from './SavePreset';
import { cascadePair, distinctPoints, reachableTarget } from './cascade-defaults';

/** Whether a query key (ending in how many answers were done) asks for the same curve as `asked`. */
const sameCurve = (key: readonly unknown[], asked: readonly unknown[]) => JSON.stringify(key.slice(0, -1)) === JSON.stringify(asked);

/** Which questions the condition reads: one question, or every question of a family's kinds. */
type Scope = { question: string } | { family: CascadeFamily };

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

/**
 * A cascade between two of the run's models, computed from their answers without sending a request:
 * the curve of accuracy against cost over every threshold, both models alone, a table of the points,
 * and the threshold a target picks (at least an accuracy at the least cost, or the best under a cost
 * ceiling), with its condition as the API takes it, to save as a preset. It starts on the run's
 * cheapest model then its most accurate, at a target a point worth running reaches, and never picks
 * a threshold a model alone beats.
 */
export function CascadePanel({ run, report, done }: { run: EvalRun; report: EvalReport; done: number }) {
  const kinds = Object.values(run.questions as Record<string, { type: string }>).map((q) => q.type);
  const [pair] = useState(() => cascadePair(report));
  const [first, setFirst] = useState(pair.first);
  const [second, setSecond] = useState(pair.second);
  const [scope, setScope] = useState<Scope>(kinds.some((k) => k !== 'noul') ? { family: 'confidenceBelow' } : { family: 'probabilityBetween' });
  const [targetKind, setTargetKind] = useState<'accuracy' | 'cost'>('accuracy');
  // Null until the analyst types one: the curve's reachable target meanwhile.
  const [accuracyTyped, setAccuracyPercent] = useState<number | null>(null);
  const [ceiling, setCeiling] = useState(0.001);
  const asked = [...evalKeys.run(run.id), 'cascade', first, second, scope];
  const curve = useQuery({
    queryKey: [...asked, done],
    queryFn: () => call('evals.cascadeCurve', { id: run.id, first_variant: first, second_variant: second, ...scope }),
    enabled: first !== second,
    // Keep showing the curve while more answers arrive, not when the models or the condition change:
    // the old curve's points (and the condition a pick would save) belong to another question.
    placeholderData: (previous, previousQuery) => (previousQuery && sameCurve(previousQuery.queryKey, asked) ? previous : undefined),
  });
  const singles = curve.data ? [curve.data.first, curve.data.second] : [];
  const points = curve.data ? distinctPoints(curve.data.points) : [];
  const accuracyPercent = accuracyTyped ?? (curve.data ? reachableTarget(points, singles) : null) ?? 95;
  const target: CascadeTarget = targetKind === 'accuracy' ? { accuracy: accuracyPercent / 100 } : { max_cost_per_item: ceiling };
  const pick = curve.data ? pickPoint(points, target, singles) : null;
  const picked = pick ? (pick.reached ? pick.point : pick.closest) : null;
  const scopeValue = 'question' in scope ? `q:${scope.question}` : `f:${scope.family}`;
  const family: CascadeFamily =
    'family' in scope
      ? scope.family
      : (run.questions as Record<string, { type: string }>)[scope.question]?.type === 'noul'
        ? 'probabilityBetween'
        : 'confidenceBelow';
  const model = (i: number) => run.variants[i]?.name ?? String(i);
  return (
    <section className="cascade-panel" aria-labelledby="cascade-title">
      <h3 id="cascade-title" className="small-heading">
        Cascade: the uncertain answers to a second model
      </h3>
      <p className="muted small">
        Computed from this run&apos;s answers, without sending a request: the first model answers every item, and where the condition holds on its answers the
        second model answers it again (both billed). Items either model failed are left out. It starts on the run&apos;s cheapest model, then its most accurate.
      </p>
      <div className="toolbar">
        <label>
          First <VariantSelect run={run} value={first} onChange={setFirst} label="First model" />
        </label>
        <label>
          then <VariantSelect run={run} value={second} onChange={setSecond} label="Second model" />
        </label>
        <label>
          when{' '}
          <select
            value={scopeValue}
            aria-label="Condition reads"
            aria-describedby="cascade-figure-help"
            onChange={(e) => {
              const v = e.target.value;
              setScope(v.startsWith('q:') ? { question: v.slice(2) } : { family: v.slice(2) as CascadeFamily });
            }}
          >
            {kinds.some((k) => k !== 'noul') ? <option value="f:confidenceBelow">any choice, score or box answer is unsure (confidenceBelow)</option> : null}
            {kinds.includes('noul') ? <option value="f:probabilityBetween">any yes/no answer is near 0.5 (probabilityBetween)</option> : null}
            {Object.entries(run.questions as Record<string, { type: string }>).map(([name, q]) => (
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
      {first === second ? <p className="notice notice-warn">Pick two different models.</p> : null}
      {curve.isPending && first !== second ? <Loading what="the cascade curve" /> : null}
      {curve.error ? <ErrorNotice error={curve.error} title="No curve" /> : null}
      {curve.data && first !== second ? (
        <>
          <p className="small" data-testid="cascade-items">
            {curve.data.items} items both models answered; {curve.data.metric} over {curve.data.questions.join(', ') || 'no question'}.
            {curve.data.excluded.total > 0
              ? ` ${curve.data.excluded.total} left out (${curve.data.excluded.first_failed} without an answer of ${model(first)}, ${curve.data.excluded.second_failed} without one of ${model(second)}).`
              : ''}
            {curve.data.cost_unknown > 0 ? ` ${curve.data.cost_unknown} results of unknown cost counted as $0.` : ''}
          </p>
          <div className="toolbar cascade-target">
            <label>
              <input type="radio" name="cascade-target" checked={targetKind === 'accuracy'} onChange={() => setTargetKind('accuracy')} /> At least
            </label>
            <input
              type="number"
              min={0}
              max={100}
              step={0.1}
              value={accuracyPercent}
              onChange={(e) => {
                setAccuracyPercent(Number(e.target.value));
                setTargetKind('accuracy');
              }}
              aria-label="Target accuracy in percent"
              className="narrow"
            />
            <span>% {curve.data.metric} at the least cost</span>
            <label>
              <input type="radio" name="cascade-target" checked={targetKind === 'cost'} onChange={() => setTargetKind('cost')} /> or the best at most $
            </label>
            <input
              type="number"
              min={0}
              step={0.0001}
              value={ceiling}
              onChange={(e) => {
                setCeiling(Number(e.target.value));
                setTargetKind('cost');
              }}
              aria-label="Cost ceiling in USD per item"
              className="narrow"
            />
            <span>per item</span>
          </div>
          {pick ? (
            <div className={pick.reached ? 'cascade-pick' : 'cascade-pick notice notice-warn'} data-testid="cascade-pick">
              <p>
                {pick.reached ? (
                  <>
                    <strong>Threshold {pick.point.threshold}</strong>: {pick.message}.
                  </>
                ) : (
                  <>
                    {pick.message}.{pick.closest ? ` Closest: threshold ${pick.closest.threshold}.` : ''}
                  </>
                )}
              </p>
              {picked ? (
                <>
                  <pre className="mono small" data-testid="cascade-condition">
                    {JSON.stringify({ model: curve.data.second.model, when: picked.condition }, null, 2)}
                  </pre>
                  <SavePreset run={run} curve={curve.data} point={picked} />
                </>
              ) : null}
            </div>
          ) : null}
          <CurveChart curve={curve.data} picked={picked} />
          <CascadeTable curve={curve.data} points={points} picked={picked} />
        </>
      ) : null}
    </section>
  );
}
