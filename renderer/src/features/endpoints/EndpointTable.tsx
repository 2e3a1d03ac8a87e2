import { useMemo, useState } from 'react';
import type { Endpoint } from '../../../../shared/schemas/endpoint';
import type { EndpointDetail } from '../../../../shared/schemas/inspector';
import { integer, percent, perMillion, seconds, STATUS_LABEL, tokensPerSecond, UNKNOWN } from '../../ui/format';

export interface Row {
  record: Endpoint;
  detail: EndpointDetail | undefined;
}

type Column = { id: string; label: string; title?: string; value: (r: Row) => number | string | null; render: (r: Row) => string; numeric?: boolean; cellTitle?: (r: Row) => string | undefined };

const priceSource = (r: Row) => (r.detail ? `Price from: ${r.detail.sources.pricing ?? 'no source (unknown)'}` : undefined);

const COLUMNS: Column[] = [
  { id: 'provider', label: 'Provider', value: (r) => r.record.provider_name, render: (r) => r.record.provider_name },
  { id: 'prompt', label: 'In $/M', title: 'USD per million prompt tokens', numeric: true, value: (r) => r.detail?.prompt_price ?? null, render: (r) => perMillion(r.detail?.prompt_price ?? null), cellTitle: priceSource },
  { id: 'completion', label: 'Out $/M', title: 'USD per million completion tokens', numeric: true, value: (r) => r.detail?.completion_price ?? null, render: (r) => perMillion(r.detail?.completion_price ?? null), cellTitle: priceSource },
  { id: 'status', label: 'Status', value: (r) => -r.record.status, render: (r) => STATUS_LABEL[r.record.status] ?? String(r.record.status) },
  {
    id: 'uptime',
    label: 'Uptime 5m·30m·1d',
    title: 'Share of attempts that did not fail by the provider’s fault',
    numeric: true,
    value: (r) => r.record.uptime_last_30m,
    render: (r) => [r.record.uptime_last_5m, r.record.uptime_last_30m, r.record.uptime_last_1d].map(percent).join(' '),
  },
  { id: 'lat50', label: 'TTFT p50', title: 'Time to first token, median, last 30 minutes', numeric: true, value: (r) => r.record.latency_last_30m?.p50 ?? null, render: (r) => seconds(r.record.latency_last_30m?.p50) },
  { id: 'lat90', label: 'TTFT p90', numeric: true, value: (r) => r.record.latency_last_30m?.p90 ?? null, render: (r) => seconds(r.record.latency_last_30m?.p90) },
  { id: 'tp50', label: 'Tok/s p50', title: 'Output tokens per second after the first, median', numeric: true, value: (r) => r.record.throughput_last_30m?.p50 ?? null, render: (r) => tokensPerSecond(r.record.throughput_last_30m?.p50) },
  { id: 'zdr', label: 'ZDR', value: (r) => (r.detail?.zdr === true ? 1 : r.detail?.zdr === false ? 0 : null), render: (r) => (r.detail?.zdr === true ? 'yes' : r.detail?.zdr === false ? 'no' : 'unknown') },
];

/** Sortable, filterable table of a model's endpoints; unknown and unmeasured values sort last. */
export function EndpointTable({ rows }: { rows: Row[] }) {
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
        <table className="table dense" aria-label="Endpoints">
          <thead>
            <tr>
              {COLUMNS.map((c) => (
                <th key={c.id} scope="col" className={c.numeric ? 'num' : undefined} title={c.title} aria-sort={sort.id === c.id ? (sort.dir === 1 ? 'ascending' : 'descending') : 'none'}>
                  <button type="button" className="sort-button" onClick={() => setSort((s) => ({ id: c.id, dir: s.id === c.id ? (s.dir === 1 ? -1 : 1) : 1 }))}>
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
                        {r.detail?.context_length ? `${integer(r.detail.context_length)} ctx` : 'context unknown'} ·{' '}
                        {r.record.max_completion_tokens !== null ? `${integer(r.record.max_completion_tokens)} max out` : 'max output unknown'}{' '}
                        {r.detail?.simulated ? <span className="badge badge-sim">simulated</span> : null}
                      </div>
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
