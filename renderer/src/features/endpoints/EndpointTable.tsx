import { useMemo, useState } from 'react';
import type { Endpoint } from '../../../../shared/schemas/endpoint';
import type { EndpointDetail } from '../../../../shared/schemas/inspector';
import { integer, percent, perMillion, seconds, STATUS_LABEL, tokensPerSecond, UNKNOWN } from '../../ui/format';
import { ScrollArea } from '../../ui/ScrollArea';
import { counted } from '../../lib/plural';
import { unmeasuredText } from './unmeasured-text';

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
const minutes = (n: number) => `${n} minute${n === 1 ? '' : 's'}`;

type Window = {
  id: string;
  label: string;
  minutes: number;
  pick: (r: Row) => number | null;
  attempts: (r: Row) => number | null;
  shorter: ((r: Row) => number | null) | null;
};

/**
 * An uptime window with the attempts behind it: "100% of 12". A window holding the same attempts
 * as the shorter one says so instead of repeating its figure (a fresh install has minutes, not a day).
 */
function uptimeColumn(w: Window): Column {
  const n = (r: Row) => w.attempts(r);
  const same = (r: Row) => w.shorter !== null && n(r) !== null && n(r)! > 0 && n(r) === w.shorter(r);
  const shorterName = w.id === 'up1d' ? '30m' : '5m';
  const partial = (r: Row) => {
    const measured = measuredMinutes(r);
    return w.pick(r) !== null && measured !== null && measured < w.minutes;
  };
  return {
    id: w.id,
    label: w.label,
    title: `Share of attempts in the last ${w.label.replace('Up ', '')} that did not fail by the provider’s fault, and (in brackets) how many attempts it is of; * marks a window only partly measured`,
    numeric: true,
    descending: true,
    value: w.pick,
    render: (r) => (same(r) ? `as ${shorterName}` : w.pick(r) === null ? UNKNOWN : `${percent(w.pick(r))}${partial(r) ? '*' : ''} (${n(r) ?? 0})`),
    cellTitle: (r) =>
      same(r)
        ? `The same ${n(r)} attempts as the shorter window: no older traffic`
        : partial(r)
          ? `Partial: measured for only ${minutes(Math.max(1, Math.round(measuredMinutes(r)!)))} of this window`
          : w.pick(r) === null
            ? 'No traffic in this window'
            : undefined,
  };
}

/**
 * What the status says, weighed: "no traffic" when nothing was sent lately (the API's status 0 also
 * means that), and "recovering" when the last five minutes are healthy but a longer window is below 90%.
 */
export function statusText(r: Row): { text: string; title: string } {
  const status = r.record.status;
  if (status !== 0)
    return {
      text: STATUS_LABEL[status] ?? String(status),
      title:
        status === -1
          ? 'Under 90% uptime over the last 5 minutes'
          : status === -2
            ? 'Paused by the circuit breaker after failures in a row'
            : 'Every attempt of the last 5 minutes failed',
    };
  if ((r.detail?.attempts_5m ?? 0) === 0 && r.record.uptime_last_5m === null)
    return { text: 'no traffic', title: 'No attempts in the last 5 minutes: nothing to judge its health by' };
  const longer = [r.record.uptime_last_30m, r.record.uptime_last_1d].filter((u): u is number => u !== null);
  const low = longer.length > 0 ? Math.min(...longer) : null;
  if (low !== null && low < 90) return { text: 'recovering', title: `Healthy over the last 5 minutes, but ${percent(low)} over a longer window` };
  return { text: 'healthy', title: `At least 90% of the last 5 minutes' attempts succeeded` };
}

/** A median and 90th percentile as "p50 / p90", each formatted without its unit (said in the column's label). */
const p50p90 = (stats: { p50: number; p90: number } | null | undefined, format: (n: number) => string, unit: string): string =>
  stats ? `${format(stats.p50).replace(unit, '')} / ${format(stats.p90).replace(unit, '')}` : UNKNOWN;

const tp = (title: string): Column => ({
  id: 'tp-p50',
  label: 'Tok/s p50 / p90',
  title,
  numeric: true,
  descending: true,
  value: (r) => r.record.throughput_last_30m?.p50 ?? null,
  render: (r) => p50p90(r.record.throughput_last_30m, tokensPerSecond, ' tok/s'),
});

/** A price per million tokens of one kind (prompt or completion), with where the price came from. */
const priceColumn = (kind: 'prompt' | 'completion', label: string, field: 'prompt_price' | 'completion_price'): Column => ({
  id: kind,
  label,
  title: `USD per million ${kind} tokens`,
  numeric: true,
  value: (r) => r.detail?.[field] ?? null,
  render: (r) => perMillion(r.detail?.[field] ?? null),
  cellTitle: priceSource,
});

const COLUMNS: Column[] = [
  { id: 'provider', label: 'Provider', value: (r) => r.record.provider_name, render: (r) => r.record.provider_name },
  {
    id: 'zdr',
    label: 'ZDR',
    title: 'Whether the provider is known to keep no prompts (zero data retention)',
    value: (r) => (r.detail?.zdr === true ? 1 : r.detail?.zdr === false ? 0 : null),
    render: (r) => (r.detail?.zdr === true ? 'yes' : r.detail?.zdr === false ? 'no' : 'unknown'),
  },
  priceColumn('prompt', 'In $/M', 'prompt_price'),
  priceColumn('completion', 'Out $/M', 'completion_price'),
  { id: 'status', label: 'Status', value: (r) => -r.record.status, render: (r) => statusText(r).text, cellTitle: (r) => statusText(r).title },
  uptimeColumn({ id: 'up5m', label: 'Up 5m', minutes: 5, pick: (r) => r.record.uptime_last_5m, attempts: (r) => r.detail?.attempts_5m ?? null, shorter: null }),
  uptimeColumn({
    id: 'up30m',
    label: 'Up 30m',
    minutes: 30,
    pick: (r) => r.record.uptime_last_30m,
    attempts: (r) => r.detail?.attempts_30m ?? null,
    shorter: (r) => r.detail?.attempts_5m ?? null,
  }),
  uptimeColumn({
    id: 'up1d',
    label: 'Up 1d',
    minutes: 24 * 60,
    pick: (r) => r.record.uptime_last_1d,
    attempts: (r) => r.detail?.attempts_1d ?? null,
    shorter: (r) => r.detail?.attempts_30m ?? null,
  }),
  {
    id: 'lat50',
    label: 'TTFT s p50 / p90',
    title: 'Time to first token in seconds, last 30 minutes: the median, and the time 90% of requests beat (sorted by the median)',
    numeric: true,
    value: (r) => r.record.latency_last_30m?.p50 ?? null,
    render: (r) => p50p90(r.record.latency_last_30m, seconds, ' s'),
  },
  tp(
    'Output tokens per second after the first, last 30 minutes: the median, and the rate 90% of requests reach (sorted by the median; p75 and p99 in the chart below)',
  ),
];

/** One endpoint: its provider, tag, context and limits in the first cell, then one cell per column. */
function EndpointRow({ row: r, unmeasured }: { row: Row; unmeasured: { tag: string; reason: string }[] }) {
  return (
    <tr data-tag={r.record.tag}>
      {COLUMNS.map((c, i) =>
        i === 0 ? (
          <th key={c.id} scope="row">
            {c.render(r)}
            <div className="muted small">
              <span className="mono">{r.record.tag}</span> · {r.record.quantization ?? 'quantization unknown'} ·{' '}
              {r.detail?.context_length ? `${integer(r.detail.context_length)} context` : 'context unknown'} ·{' '}
              {r.record.max_completion_tokens !== null ? `${integer(r.record.max_completion_tokens)} max out` : 'max output unknown'}{' '}
              {r.detail?.simulated ? <span className="badge badge-sim">simulated</span> : null}
            </div>
            {unmeasured
              .filter((u) => u.tag === r.record.tag)
              .map((u) => (
                <div key={u.tag} className="unmeasured small" role="note">
                  {unmeasuredText(u.reason, r.record.latency_last_30m !== null || r.record.throughput_last_30m !== null)}
                </div>
              ))}
          </th>
        ) : (
          <td
            key={c.id}
            className={`${c.numeric ? 'num' : ''} ${c.id === 'status' ? `status-${r.record.status} status-${statusText(r).text.replace(' ', '-')}` : ''}`}
            title={c.cellTitle?.(r)}
          >
            {c.render(r)}
          </td>
        ),
      )}
    </tr>
  );
}

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
          {sorted.length} of {counted(rows.length, 'endpoint')} · {UNKNOWN} means unknown, or no traffic in that window
        </span>
      </div>
      <ScrollArea label="Endpoints, scrolls sideways">
        <table className="table dense sticky-first" aria-label="Endpoints">
          <thead>
            <tr>
              {COLUMNS.map((c) => (
                <th
                  key={c.id}
                  scope="col"
                  className={c.numeric ? 'num' : undefined}
                  title={c.title}
                  aria-sort={sort.id === c.id ? (sort.dir === 1 ? 'ascending' : 'descending') : 'none'}
                >
                  <button
                    type="button"
                    className="sort-button"
                    onClick={() => setSort((s) => ({ id: c.id, dir: s.id === c.id ? (s.dir === 1 ? -1 : 1) : c.descending ? -1 : 1 }))}
                  >
                    {c.label}
                    <span aria-hidden="true">{sort.id === c.id ? (sort.dir === 1 ? ' ▲' : ' ▼') : ''}</span>
                  </button>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {sorted.map((r) => (
              <EndpointRow key={r.record.tag} row={r} unmeasured={unmeasured} />
            ))}
          </tbody>
        </table>
      </ScrollArea>
    </div>
  );
}
