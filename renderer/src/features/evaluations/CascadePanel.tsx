import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { EvalRun } from '../../../../shared/schemas/evaluation';
import type { CascadeCurve, CascadeFamily, CascadePoint, CascadeTarget } from '../../../../shared/schemas/cascade-curve';
import { pickPoint } from '../../../../shared/evaluations/cascade-pick';
import { formatUsd } from '../../../../shared/money/format-usd';
import { call } from '../../transport/transport';
import { Chart, NEUTRAL, PALETTE } from '../../ui/Chart';
import { ErrorNotice, Loading } from '../../ui/components';
import { evalKeys } from './api';
import { ScrollArea } from '../../ui/ScrollArea';

const TOOLTIP = { trigger: 'item', renderMode: 'richText' } as const;
const percent = (x: number | null) => (x === null ? '–' : `${(x * 100).toFixed(1)}%`);
const perItem = (usd: number) => Number(usd.toPrecision(4));

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

/** Accuracy against cost per item (both stages billed): the cascade at every threshold as a line, each model alone as a point, the picked threshold ringed. */
function CurveChart({ curve, picked }: { curve: CascadeCurve; picked: CascadePoint | null }) {
  const option = useMemo(() => {
    const line = [...curve.points].sort((a, b) => a.cost_per_item - b.cost_per_item).filter((p) => p.accuracy !== null);
    const single = (s: CascadeCurve['first'], i: number) => ({
      name: `${s.model} alone`,
      type: 'scatter',
      color: PALETTE[i],
      symbol: i === 0 ? 'circle' : 'rect',
      symbolSize: 13,
      z: 3,
      // The cheaper model's name to its right, the dearer one's to its left: both stay inside the chart.
      label: { show: true, position: i === 0 ? 'right' : 'left', formatter: `${s.model.split('/').pop()} alone`, fontSize: 11 },
      tooltip: { formatter: () => `${s.model} alone: ${percent(s.accuracy)} at ${formatUsd(s.cost_per_item)} per item` },
      data: s.accuracy === null ? [] : [[perItem(s.cost_per_item), s.accuracy]],
    });
    return {
      tooltip: TOOLTIP,
      legend: { top: 0 },
      grid: { left: 64, right: 40, top: 40, bottom: 44 },
      xAxis: { type: 'value', name: 'USD per item', nameLocation: 'middle', nameGap: 28, scale: true },
      yAxis: { type: 'value', name: curve.metric, scale: true },
      series: [
        {
          name: 'cascade',
          type: 'line',
          color: NEUTRAL,
          symbolSize: 5,
          z: 2,
          tooltip: {
            formatter: (p: { dataIndex: number }) => {
              const x = line[p.dataIndex]!;
              return `threshold ${x.threshold}: ${percent(x.accuracy)} at ${formatUsd(x.cost_per_item)} per item, ${percent(x.escalated)} escalated`;
            },
          },
          data: line.map((p) => [perItem(p.cost_per_item), p.accuracy]),
        },
        single(curve.first, 0),
        single(curve.second, 1),
        {
          name: 'picked',
          type: 'scatter',
          color: PALETTE[2],
          symbol: 'emptyCircle',
          symbolSize: 20,
          z: 4,
          tooltip: { formatter: () => (picked ? `picked: threshold ${picked.threshold}` : '') },
          data: picked && picked.accuracy !== null ? [[perItem(picked.cost_per_item), picked.accuracy]] : [],
        },
      ],
    };
  }, [curve, picked]);
  return <Chart option={option} height={300} label={`Cascade accuracy against cost: ${curve.first.model} then ${curve.second.model}`} />;
}

/** Saves the picked threshold as a named preset: the second model, the first, the condition and where it came from. */
function SavePreset({ run, curve, point }: { run: EvalRun; curve: CascadeCurve; point: CascadePoint }) {
  const client = useQueryClient();
  const [name, setName] = useState('');
  const save = useMutation({
    mutationFn: () =>
      call('cascadePresets.save', {
        name: name.trim(),
        model: curve.second.model,
        first_model: curve.first.model,
        when: point.condition,
        source: {
          run_id: run.id,
          first: curve.first.model,
          second: curve.second.model,
          threshold: point.threshold,
          accuracy: point.accuracy,
          cost_per_item: point.cost_per_item,
          escalated: point.escalated,
        },
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['cascadePresets'] }),
  });
  return (
    <form
      className="toolbar"
      onSubmit={(e) => {
        e.preventDefault();
        if (name.trim()) save.mutate();
      }}
    >
      <label>
        Preset name <input value={name} onChange={(e) => setName(e.target.value)} placeholder="e.g. topic-unsure" maxLength={100} aria-label="Preset name" />
      </label>
      <button type="submit" disabled={!name.trim() || save.isPending}>
        Save as preset
      </button>
      {save.isSuccess ? (
        <span className="small" role="status">
          Saved “{save.data.name}”: requests can name it.
        </span>
      ) : null}
      {save.error ? <ErrorNotice error={save.error} title="Not saved" /> : null}
    </form>
  );
}

/**
 * A cascade between two of the run's models, computed from their answers without sending a request:
 * the curve of accuracy against cost over every threshold, both models alone, a table of the points,
 * and the threshold a target picks (at least an accuracy at the least cost, or the best under a cost
 * ceiling), with its condition as the API takes it, to save as a preset.
 */
export function CascadePanel({ run, done }: { run: EvalRun; done: number }) {
  const kinds = Object.values(run.questions as Record<string, { type: string }>).map((q) => q.type);
  const [first, setFirst] = useState(0);
  const [second, setSecond] = useState(1);
  const [scope, setScope] = useState<Scope>(kinds.some((k) => k !== 'noul') ? { family: 'confidenceBelow' } : { family: 'probabilityBetween' });
  const [targetKind, setTargetKind] = useState<'accuracy' | 'cost'>('accuracy');
  const [accuracyPercent, setAccuracyPercent] = useState(95);
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
  const target: CascadeTarget = targetKind === 'accuracy' ? { accuracy: accuracyPercent / 100 } : { max_cost_per_item: ceiling };
  const pick = curve.data ? pickPoint(curve.data.points, target) : null;
  const picked = pick ? (pick.reached ? pick.point : pick.closest) : null;
  const scopeValue = 'question' in scope ? `q:${scope.question}` : `f:${scope.family}`;
  const model = (i: number) => run.variants[i]?.name ?? String(i);
  return (
    <section className="cascade-panel" aria-labelledby="cascade-title">
      <h3 id="cascade-title" className="small-heading">
        Cascade: the uncertain answers to a second model
      </h3>
      <p className="muted small">
        Computed from this run&apos;s answers, without sending a request: the first model answers every item, and where the condition holds on its answers the
        second model answers it again (both billed). Items either model failed are left out.
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
              step={0.5}
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
          <ScrollArea label="Cascade at each threshold, scrolls" className="cascade-table">
            <table className="table small" aria-label="Cascade at each threshold">
              <thead>
                <tr>
                  <th scope="col">threshold</th>
                  <th scope="col">condition</th>
                  <th scope="col">{curve.data.metric}</th>
                  <th scope="col">cost per item</th>
                  <th scope="col">escalated</th>
                  <th scope="col">latency mean</th>
                  <th scope="col">p50</th>
                </tr>
              </thead>
              <tbody>
                {[curve.data.first, curve.data.second].map((s) => (
                  <tr key={`${s.model}-alone`} className="muted">
                    <th scope="row" colSpan={2}>
                      {s.model} alone
                    </th>
                    <td className="mono">{percent(s.accuracy)}</td>
                    <td className="mono">{formatUsd(s.cost_per_item)}</td>
                    <td />
                    <td className="mono">{s.latency_ms.mean === null ? '–' : `${s.latency_ms.mean.toFixed(0)} ms`}</td>
                    <td className="mono">{s.latency_ms.p50 === null ? '–' : `${s.latency_ms.p50.toFixed(0)} ms`}</td>
                  </tr>
                ))}
                {curve.data.points.map((p) => (
                  <tr key={JSON.stringify(p.condition)} className={p === picked ? 'picked' : undefined} aria-selected={p === picked}>
                    <td className="mono">{p.threshold}</td>
                    <td className="mono small">{JSON.stringify(p.condition)}</td>
                    <td className="mono">{percent(p.accuracy)}</td>
                    <td className="mono">{formatUsd(p.cost_per_item)}</td>
                    <td className="mono">{percent(p.escalated)}</td>
                    <td className="mono">{p.latency_ms.mean === null ? '–' : `${p.latency_ms.mean.toFixed(0)} ms`}</td>
                    <td className="mono">{p.latency_ms.p50 === null ? '–' : `${p.latency_ms.p50.toFixed(0)} ms`}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollArea>
        </>
      ) : null}
    </section>
  );
}
