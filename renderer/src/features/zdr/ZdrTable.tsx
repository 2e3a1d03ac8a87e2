import { formatUsd } from '../../../../shared/money/format-usd';
import { percent, perMillion, seconds, tokensPerSecond, UNKNOWN } from '../../ui/format';
import { ScrollArea } from '../../ui/ScrollArea';
import { impact, type Sort, type SortKey, type ZdrRow } from './impact';

const usd = (v: number | null) => (v === null ? UNKNOWN : formatUsd(v));

/** Sorts by the sort made of the one in force. */
type SortBy = (next: (sort: Sort) => Sort) => void;

/** A column heading that sorts by its figure, and the other way when pressed again. */
function SortHeader({ id, label, title, sort, onSort }: { id: SortKey; label: string; title: string | undefined; sort: Sort; onSort: SortBy }) {
  return (
    <th scope="col" title={title} aria-sort={sort.key === id ? (sort.dir === 1 ? 'ascending' : 'descending') : 'none'}>
      <button type="button" className="sort-button" onClick={() => onSort((s) => ({ key: id, dir: s.key === id ? (s.dir === 1 ? -1 : 1) : 1 }))}>
        {label}
        <span aria-hidden="true">{sort.key === id ? (sort.dir === 1 ? ' ▲' : ' ▼') : ''}</span>
      </button>
    </th>
  );
}

/** One model: its coverage, and each figure with every endpoint against ZDR endpoints only. */
function ModelRow({ row: r }: { row: ZdrRow }) {
  return (
    <tr data-model={r.id}>
      <th scope="row">
        <a href={`#/endpoints?model=${encodeURIComponent(r.id)}`} title={`Endpoints of ${r.id}`}>
          {r.name}
        </a>
        <div className="muted mono small">{r.id}</div>
      </th>
      <td>
        <div className="meter" role="meter" aria-valuemin={0} aria-valuemax={100} aria-valuenow={r.coverage ?? 0} aria-label={`ZDR coverage of ${r.name}`}>
          <div className="meter-fill" style={{ width: `${r.coverage ?? 0}%` }} />
        </div>
        <div className="small">
          {r.kept.length} of {r.all} · {percent(r.coverage)}
          {r.unknown > 0 ? ` · ${r.unknown} unknown` : ''}
        </div>
        <div className="muted small zdr-providers">{r.kept.map((e) => e.provider_name.replace(' (simulated)', '')).join(', ') || 'none'}</div>
      </td>
      <td data-traffic={r.id} className="wrap impact">
        {r.cost ? impact(r, r.perThousand, usd) : <span className="muted">no traffic yet</span>}
        {r.cost ? (
          <>
            <div className="muted small">list price: {impact(r, r.list, usd)}</div>
            {r.cost.measured !== null ? <div className="muted small">your requests cost {formatUsd(r.cost.measured)} per 1,000</div> : null}
            <div className="muted small">
              {r.cost.traffic.requests === null
                ? 'typed'
                : `${r.cost.traffic.requests.toLocaleString('en-US')} request${r.cost.traffic.requests === 1 ? '' : 's'}`}
              : {Math.round(r.cost.traffic.input_tokens).toLocaleString('en-US')} in, {Math.round(r.cost.traffic.output_tokens).toLocaleString('en-US')} out
              each
            </div>
          </>
        ) : null}
      </td>
      <td className="wrap impact">
        <div>{impact(r, r.input, perMillion)}</div>
        <div className="muted">{impact(r, r.output, perMillion)}</div>
      </td>
      <td className="wrap impact">{impact(r, r.latency, seconds)}</td>
      <td className="wrap impact">{impact(r, r.throughput, tokensPerSecond)}</td>
    </tr>
  );
}

/** The models' ZDR coverage and what zdr: true would change, sortable by each figure. */
export function ZdrTable({ rows, sort, onSort }: { rows: ZdrRow[]; sort: Sort; onSort: SortBy }) {
  const header = (id: SortKey, label: string, title?: string) => <SortHeader id={id} label={label} title={title} sort={sort} onSort={onSort} />;
  return (
    <ScrollArea label="ZDR coverage by model, scrolls sideways">
      <table className="table dense sticky-first" aria-label="ZDR coverage by model">
        <thead>
          <tr>
            {header('model', 'Model')}
            {header('coverage', 'ZDR endpoints', 'Endpoints known to keep no prompts, of all; unknown ones are left out by zdr: true')}
            {header(
              'traffic',
              'Per 1,000 of your requests',
              'What 1,000 requests like yours cost as routing sends them (each endpoint as often as it answers, failures and fallbacks included), all endpoints → ZDR only; the cheapest list price below',
            )}
            {header('input', 'Cheapest $/M in · out', 'Cheapest input and output prices, all endpoints → ZDR only, USD per million tokens')}
            {header('latency', 'Best TTFT p50', 'Best median time to first token, last 30 minutes, all endpoints → ZDR only')}
            {header('throughput', 'Best tok/s p50', 'Best median output tokens per second, last 30 minutes, all endpoints → ZDR only')}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <ModelRow key={r.id} row={r} />
          ))}
        </tbody>
      </table>
    </ScrollArea>
  );
}
