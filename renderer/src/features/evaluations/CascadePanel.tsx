import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { EvalReport, EvalRun } from '../../../../shared/schemas/evaluation';
import type { CascadeTarget } from '../../../../shared/schemas/cascade-curve';
import { pickPoint } from '../../../../shared/evaluations/cascade-pick';
import { ErrorNotice, Loading } from '../../ui/components';
import { cascadeCurveQuery, cascadePresetsQuery, type CascadeScope as Scope } from './api';
import { adoptable, presetPoint } from './adopt';
import { AdoptPreset } from './AdoptPreset';
import { CascadeControls } from './CascadeControls';
import { CascadeTargetInputs } from './CascadeTargetInputs';
import { CurveChart } from './CascadeChart';
import { CascadeTable } from './CascadeTable';
import { SavePreset } from './SavePreset';
import { cascadePair, distinctPoints, reachableTarget } from './cascade-defaults';

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
  const curve = useQuery(cascadeCurveQuery({ run: run.id, first, second, scope, done }));
  const singles = curve.data ? [curve.data.first, curve.data.second] : [];
  const points = curve.data ? distinctPoints(curve.data.points) : [];
  const accuracyPercent = accuracyTyped ?? (curve.data ? reachableTarget(points, singles) : null) ?? 95;
  const target: CascadeTarget = targetKind === 'accuracy' ? { accuracy: accuracyPercent / 100 } : { max_cost_per_item: ceiling };
  const pick = curve.data ? pickPoint(points, target, singles) : null;
  const picked = pick ? (pick.reached ? pick.point : pick.closest) : null;
  const model = (i: number) => run.variants[i]?.name ?? String(i);
  // A saved preset this curve's threshold can move, and where it stands on the curve now.
  const presets = useQuery(cascadePresetsQuery());
  const [adoptInto, setAdoptInto] = useState<string | null>(null);
  const movable = curve.data ? adoptable(presets.data ?? [], curve.data) : [];
  const chosenPreset = movable.find((p) => p.name === adoptInto) ?? movable[0] ?? null;
  const presetNow = chosenPreset && curve.data ? presetPoint(chosenPreset, curve.data) : null;
  return (
    <section className="cascade-panel" aria-labelledby="cascade-title">
      <h3 id="cascade-title" className="small-heading">
        Cascade: the uncertain answers to a second model
      </h3>
      <p className="muted small">
        Computed from this run&apos;s answers, without sending a request: the first model answers every item, and where the condition holds on its answers the
        second model answers it again (both billed). Items either model failed are left out. It starts on the run&apos;s cheapest model, then its most accurate.
      </p>
      <CascadeControls run={run} first={first} second={second} onFirst={setFirst} onSecond={setSecond} scope={scope} onScope={setScope} />
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
          <CascadeTargetInputs
            metric={curve.data.metric}
            kind={targetKind}
            onKind={setTargetKind}
            accuracyPercent={accuracyPercent}
            onAccuracyPercent={setAccuracyPercent}
            ceiling={ceiling}
            onCeiling={setCeiling}
          />
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
                  <AdoptPreset
                    run={run}
                    curve={curve.data}
                    point={picked}
                    presets={movable}
                    chosen={chosenPreset}
                    onChoose={setAdoptInto}
                    current={presetNow}
                  />
                </>
              ) : null}
            </div>
          ) : null}
          <CurveChart curve={curve.data} picked={picked} preset={chosenPreset && presetNow ? { name: chosenPreset.name, point: presetNow } : null} />
          <CascadeTable curve={curve.data} points={points} picked={picked} />
        </>
      ) : null}
    </section>
  );
}
