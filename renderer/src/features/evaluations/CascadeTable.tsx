import type { CascadeCurve, CascadePoint } from '../../../../shared/schemas/cascade-curve';
import { dominatedBy } from '../../../../shared/evaluations/cascade-pick';
import { formatUsd } from '../../../../shared/money/format-usd';
import { ScrollArea } from '../../ui/ScrollArea';
import { ColumnHeads } from '../../ui/ColumnHeads';

const percent = (x: number | null) => (x === null ? '–' : `${(x * 100).toFixed(1)}%`);
const ms = (x: number | null) => (x === null ? '–' : `${x.toFixed(0)} ms`);

/**
 * Each model alone, then the cascade at each threshold that changes which items are escalated; a
 * threshold a model alone beats (as accurate or more, for no more) is marked and never picked.
 */
export function CascadeTable({ curve, points, picked }: { curve: CascadeCurve; points: CascadePoint[]; picked: CascadePoint | null }) {
  const singles = [curve.first, curve.second];
  return (
    <ScrollArea label="Cascade at each threshold, scrolls" className="cascade-table">
      <table className="table small" aria-label="Cascade at each threshold">
        <ColumnHeads names={['threshold', 'condition', curve.metric, 'cost per item', 'escalated', 'latency mean', 'p50', 'worth it?']} />
        <tbody>
          {singles.map((s) => (
            <tr key={`${s.model}-alone`} className="muted">
              <th scope="row" colSpan={2}>
                {s.model} alone
              </th>
              <td className="mono">{percent(s.accuracy)}</td>
              <td className="mono">{formatUsd(s.cost_per_item)}</td>
              <td />
              <td className="mono">{ms(s.latency_ms.mean)}</td>
              <td className="mono">{ms(s.latency_ms.p50)}</td>
              <td />
            </tr>
          ))}
          {points.map((p) => {
            const beaten = dominatedBy(p, singles);
            return (
              <tr key={JSON.stringify(p.condition)} className={p === picked ? 'picked' : beaten ? 'muted' : undefined} aria-selected={p === picked}>
                <td className="mono">{p.threshold}</td>
                <td className="mono small">{JSON.stringify(p.condition)}</td>
                <td className="mono">{percent(p.accuracy)}</td>
                <td className="mono">{formatUsd(p.cost_per_item)}</td>
                <td className="mono">{percent(p.escalated)}</td>
                <td className="mono">{ms(p.latency_ms.mean)}</td>
                <td className="mono">{ms(p.latency_ms.p50)}</td>
                <td className="small" data-testid="dominated">
                  {beaten ? `no: ${beaten.model} alone does as well for less` : ''}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </ScrollArea>
  );
}
