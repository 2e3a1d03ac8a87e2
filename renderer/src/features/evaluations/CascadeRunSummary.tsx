import { useQuery } from '@tanstack/react-query';
import { describeCondition } from '../../../../shared/cascade/describe';
import type { EvalReport, EvalRun } from '../../../../shared/schemas/evaluation';
import { formatUsd } from '../../../../shared/money/format-usd';
import { cascadePresetsQuery } from './api';
import { costPerItem, percentText, pooledAccuracy, presetOf, questionsRead } from './cascade-run';

/**
 * The run's cascade variants: what each scored and cost per item, counted as the Cascade panel counts
 * a curve's point, beside the point of the preset it was started from, so the analyst sees whether
 * the run landed where the curve said.
 */
export function CascadeRunSummary({ run, report }: { run: EvalRun; report: EvalReport }) {
  const presets = useQuery(cascadePresetsQuery());
  const rows = run.variants.flatMap((v, i) => (v.cascade ? [{ v, cascade: v.cascade, m: report.models[i] }] : []));
  if (rows.length === 0) return null;
  return (
    <section className="cascade-run" aria-label="Cascades in this run">
      <h3 className="small-heading">Cascades in this run</h3>
      {rows.map(({ v, cascade, m }) => {
        const names = questionsRead(cascade.when, run.questions as Record<string, { type: string }>);
        const accuracy = m ? pooledAccuracy(m, names) : null;
        const cost = m ? costPerItem(m) : null;
        const preset = presetOf(v, presets.data ?? []);
        const source = preset?.source ?? null;
        return (
          <div key={v.name} className="cascade-run-variant" data-testid="cascade-run">
            <p>
              <strong>{v.name}</strong>: {v.model} answers every item, {cascade.model} again when {describeCondition(cascade.when)}
            </p>
            <dl className="cascade-run-figures">
              <div>
                <dt>This run</dt>
                <dd>
                  <span className="mono" data-testid="cascade-run-accuracy">
                    {percentText(accuracy)}
                  </span>{' '}
                  accuracy over {names.join(', ') || 'no question'} at{' '}
                  <span className="mono" data-testid="cascade-run-cost">
                    {cost === null ? '–' : formatUsd(cost)}
                  </span>{' '}
                  per item
                </dd>
              </div>
              {source ? (
                <div>
                  <dt>Its curve said</dt>
                  <dd>
                    <span className="mono" data-testid="cascade-curve-accuracy">
                      {percentText(source.accuracy)}
                    </span>{' '}
                    at{' '}
                    <span className="mono" data-testid="cascade-curve-cost">
                      {formatUsd(source.cost_per_item)}
                    </span>{' '}
                    per item, {percentText(source.escalated)} escalated (threshold {source.threshold}, preset “{preset!.name}”)
                  </dd>
                </div>
              ) : null}
            </dl>
          </div>
        );
      })}
      <p className="small muted">
        Both stages billed per item. The curve is computed from the answers of a run of both models; on the same dataset, with answers that do not vary between
        runs, a cascade run lands on its point (costs too, when requests go to endpoints of the same prices, as with provider preferences sorted by price).
      </p>
    </section>
  );
}
