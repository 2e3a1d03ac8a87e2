import { useQuery } from '@tanstack/react-query';
import type { EvalReport, ReliabilityBin } from '../../../../shared/schemas/evaluation';
import { call } from '../../transport/transport';
import { evalKeys } from './api';
import { AccuracyCostChart, ConfusionMatrix, CostLatencyChart, DistributionChart, HEADLINE, ReliabilityChart } from './EvalCharts';

/** The run's charts: accuracy against cost, reliability, confusion, errors or IoU, cost and latency, per question. */
export function RunCharts({ report, runId, done }: { report: EvalReport; runId: string; done: number }) {
  const questions = Object.entries(report.models[0]?.questions ?? {});
  const hasDistributions = questions.some(([, q]) => q.type === 'score' || q.type === 'box');
  const distributions = useQuery({
    queryKey: [...evalKeys.run(runId), 'distributions', done],
    queryFn: ({ signal }) => call('evals.distributions', { id: runId }, { signal }),
    enabled: hasDistributions,
    placeholderData: (previous) => previous,
  });
  return (
    <div className="chart-grid">
      {questions.map(([name, q]) => (
        <figure key={`${name}-cost`} className="chart-box">
          <figcaption>
            {HEADLINE[q.type] === 'accuracy' ? 'Accuracy' : HEADLINE[q.type] === 'exact' ? 'Exact level' : 'Mean IoU'} against cost: {name}
            <span className="muted small caption-note"> · up and to the left gives more for less; bars are 95% intervals</span>
          </figcaption>
          <AccuracyCostChart report={report} question={name} type={q.type} />
        </figure>
      ))}
      {questions
        .filter(([, q]) => q.type === 'noul' || q.type === 'choice')
        .map(([name]) => (
          <figure key={name} className="chart-box">
            <figcaption>
              Reliability: {name}
              <span className="muted small caption-note"> · a larger marker holds more items; hover a marker, or open the numbers, for its n</span>
            </figcaption>
            <ReliabilityChart
              title={name}
              series={report.models.map((m) => ({ model: m.model, bins: (m.questions[name]?.['reliability'] as ReliabilityBin[] | undefined) ?? [] }))}
            />
          </figure>
        ))}
      {questions
        .filter(([, q]) => q.type === 'choice')
        .map(([name]) => (
          <figure key={`${name}-confusion`} className="chart-box chart-wide">
            <figcaption>Confusion: {name}</figcaption>
            {/* Two by two, across the page: stacked, five models ran far down one column beside an empty one. */}
            <div className="confusion-grid">
              {report.models.map((m) => (
                <ConfusionMatrix
                  key={m.model}
                  model={m.model}
                  confusion={(m.questions[name]?.['confusion'] as Record<string, Record<string, number>> | undefined) ?? {}}
                />
              ))}
            </div>
          </figure>
        ))}
      {questions
        .filter(([, q]) => q.type === 'score' || q.type === 'box')
        .map(([name, q]) => (
          <figure key={`${name}-distribution`} className="chart-box">
            <figcaption>
              {q.type === 'box' ? 'IoU' : 'Errors'}: {name}
              {q.type === 'score' ? (
                <span className="muted small caption-note"> · score − expected level, as MAE counts it (exact level and QWK use the most likely level)</span>
              ) : null}
            </figcaption>
            <DistributionChart question={name} type={q.type as 'score' | 'box'} series={(distributions.data ?? []).filter((d) => d.question === name)} />
          </figure>
        ))}
      <figure className="chart-box">
        <figcaption>Cost and latency</figcaption>
        <CostLatencyChart report={report} />
      </figure>
    </div>
  );
}
