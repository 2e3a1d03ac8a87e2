import { useMemo, useState } from 'react';
import type { Endpoint } from '../../../../shared/schemas/endpoint';
import type { EndpointDetail } from '../../../../shared/schemas/inspector';
import { integer, percent, perMillion, seconds, STATUS_LABEL, tokensPerSecond, UNKNOWN } from '../../ui/format';

export interface Row {
  record: Endpoint;
  detail: EndpointDetail | undefined;
}

type Column = {
  id: string;
  label: string;
  title?: string;
  value: (r: Row) => number | string | null;
  render: (r: Row) => string;
  numeric?: boolean;
  /** Higher is better: the first click sorts the best (largest) first. */
  descending?: boolean;
  cellTitle?: (r: Row) => string | undefined;
};

const priceSource = (r: Row) => (r.detail ? `Price from: ${r.detail.sources.pricing ?? 'no source (unknown)'}` : undefined);

/** Minutes of figures behind a window: less than the window's length makes it partial. */
const measuredMinutes = (r: Row): number | null => (r.detail?.measured_since ? (Date.now() - Date.parse(r.detail.measured_since)) / 60_000 : null);

function uptimeColumn(id: string, label: string, minutes: number, pick: (r: Row) => number | null): Column {
  const partial = (r: Row) => {
    const measured = measuredMinutes(r);
    return pick(r) !== null && measured !== null && measured < minutes;
  };
  return {
    id,
    label,
    title: `Share of attempts in the last ${label.replace('Up ', '')} that did not fail by the provider’s fault; * marks a window only partly measured`,
    numeric: true,
    descending: true,
    value: pick,
    render: (r) => `${percent(pick(r))}${partial(r) ? '*' : ''}`,
    cellTitle: (r) => (partial(r) ? `Partial: measured for only ${Math.max(1, Math.round(measuredMinutes(r)!))} minutes of this window` : undefined),
  };
}

const tp = (key: 'p50' | 'p75' | 'p90' | 'p99', title?: string): Column => ({
  id: `tp-${key}`,
  label: `Tok/s ${key}`,
  ...(title ? { title } : {}),
  numeric: true,
  descending: true,
  value: (r) => r.record.throughput_last_30m?.[key] ?? null,
  render: (r) => tokensPerSecond(r.record.throughput_last_30m?.[key]).replace(' tok/s', ''),
});

const COLUMNS: Column[] = [
  { id: 'provider', label: 'Provider', value: (r) => r.record.provider_name, render: (r) => r.record.provider_name },
  { id: 'prompt', label: 'In $/M', title: 'USD per million prompt tokens', numeric: true, value: (r) => r.detail?.prompt_price ?? null, render: (r) => perMillion(r.detail?.prompt_price ?? null), cellTitle: priceSource },
  { id: 'completion', label: 'Out $/M', title: 'USD per million completion tokens', numeric: true, value: (r) => r.detail?.completion_price ?? null, render: (r) => perMillion(r.detail?.completion_price ?? null), cellTitle: priceSource },
  { id: 'context', label: 'Context', title: 'Context length in tokens', numeric: true, descending: true, value: (r) => r.detail?.context_length ?? null, render: (r) => integer(r.detail?.context_length) },
  { id: 'status', label: 'Status', value: (r) => -r.record.status, render: (r) => STATUS_LABEL[r.record.status] ?? String(r.record.status) },
  uptimeColumn('up5m', 'Up 5m', 5, (r) => r.record.uptime_last_5m),
  uptimeColumn('up30m', 'Up 30m', 30, (r) => r.record.uptime_last_30m),
  uptimeColumn('up1d', 'Up 1d', 24 * 60, (r) => r.record.uptime_last_1d),
  { id: 'lat50', label: 'TTFT p50', title: 'Time to first token, median, last 30 minutes', numeric: true, value: (r) => r.record.latency_last_30m?.p50 ?? null, render: (r) => seconds(r.record.latency_last_30m?.p50) },
  { id: 'lat90', label: 'TTFT p90', numeric: true, value: (r) => r.record.latency_last_30m?.p90 ?? null, render: (r) => seconds(r.record.latency_last_30m?.p90) },
  tp('p50', 'Output tokens per second after the first, last 30 minutes; p90 and p99 are the rates 90% and 99% of requests reach'),
  tp('p75'),
  tp('p90'),
  tp('p99'),
  { id: 'zdr', label: 'ZDR', value: (r) => (r.detail?.zdr === true ? 1 : r.detail?.zdr === false ? 0 : null), render: (r) => (r.detail?.zdr === true ? 'yes' : r.detail?.zdr === false ? 'no' : 'unknown') },
];

/** Sortable, filterable table of a model's endpoints; unknown and unmeasured values sort last. */
export function EndpointTable({ rows, unmeasured = [] }: { rows: Row[]; unmeasured?: { tag: string; reason: string }[] }) {
  const [sort, setSort] = useState<{ id: string; dir: 1 | -1 }>({ id: 'prompt', dir: 1 });
  const [filter, setFilter] = useState('');
  const sorted = useMemo(() => {
    const column = COLUMNS.find((c) => c.id === sort.id) ?? COLUMNS[0]!;
    const needle = filter.trim().toLowerCase();
    return rows
      .filter((r) => !needle || `${r.record.provider_name} ${r.record.tag} ${r.record.quantization ?? ''}`.toLowerCase().includes(needle))
      .sort((a, b) => {
        const va = column.value(a);
        const vb = column.value(b);
        if (va === null && vb === null) return 0;
        if (va === null) return 1;
        if (vb === null) return -1;
        return (va < vb ? -1 : va > vb ? 1 : 0) * sort.dir;
      });
  }, [rows, sort, filter]);
  return (
    <div>
      <div className="toolbar">
        <label htmlFor="endpoint-filter">Filter</label>
        <input id="endpoint-filter" type="search" placeholder="provider, tag or quantization" value={filter} onChange={(e) => setFilter(e.target.value)} />
        <span className="muted small">
          {sorted.length} of {rows.length} endpoints · {UNKNOWN} means unknown, or no traffic in that window
        </span>
      </div>
      <div className="table-scroll">
        <table className="table dense sticky-first" aria-label="Endpoints">
          <thead>
            <tr>
              {COLUMNS.map((c) => (
                <th key={c.id} scope="col" className={c.numeric ? 'num' : undefined} title={c.title} aria-sort={sort.id === c.id ? (sort.dir === 1 ? 'ascending' : 'descending') : 'none'}>
                  <button type="button" className="sort-button" onClick={() => setSort((s) => ({ id: c.id, dir: s.id === c.id ? (s.dir === 1 ? -1 : 1) : c.descending ? -1 : 1 }))}>
                    {c.label}
                    <span aria-hidden="true">{sort.id === c.id ? (sort.dir === 1 ? ' ▲' : ' ▼') : ''}</span>
                  </button>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {sorted.map((r) => (
              <tr key={r.record.tag} data-tag={r.record.tag}>
                {COLUMNS.map((c, i) =>
                  i === 0 ? (
                    <th key={c.id} scope="row">
                      {c.render(r)}
                      <div className="muted small">
                        <span className="mono">{r.record.tag}</span> · {r.record.quantization ?? 'quantization unknown'} ·{' '}
                        {r.record.max_completion_tokens !== null ? `${integer(r.record.max_completion_tokens)} max out` : 'max output unknown'}{' '}
                        {r.detail?.simulated ? <span className="badge badge-sim">simulated</span> : null}
                      </div>
                      {unmeasured.filter((u) => u.tag === r.record.tag).map((u) => (
                        <div key={u.tag} className="unmeasured small" role="note">
                          Could not be measured: {u.reason}
                        </div>
                      ))}
                    </th>
                  ) : (
                    <td key={c.id} className={`${c.numeric ? 'num' : ''} ${c.id === 'status' ? `status-${r.record.status}` : ''}`} title={c.cellTitle?.(r)}>
                      {c.render(r)}
                    </td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
