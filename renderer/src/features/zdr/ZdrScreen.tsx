import { useQueries, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { Endpoint } from '../../../../shared/schemas/endpoint';
import { EmptyState, ErrorNotice, Loading, Panel, ScreenHeader } from '../../ui/components';
import { percent, perMillion, seconds, tokensPerSecond, UNKNOWN } from '../../ui/format';
import { detailsQuery, listingQuery, modelsQuery } from '../endpoints';
import { SandboxNotice } from '../settings';
import { trafficQuery, zdrEndpointsQuery } from './api';
import { formatUsd } from '../../../../shared/money/format-usd';
import { ScrollArea } from '../../ui/ScrollArea';

const priceOf = (value: string): number | null => (value === '-1' ? null : Number(value));
const best = (values: (number | null | undefined)[], pick: (...v: number[]) => number): number | null => {
  const known = values.filter((v): v is number => typeof v === 'number');
  return known.length === 0 ? null : pick(...known);
};

function change(before: number | null, after: number | null, format: (v: number | null) => string): string {
  if (before === null && after === null) return 'not measured';
  if (before === null || after === null) return `${format(before)} → ${format(after)}`;
  const delta = before === 0 ? 0 : ((after - before) / before) * 100;
  return `${format(before)} → ${format(after)} (${delta >= 0 ? '+' : ''}${delta.toFixed(0)}%)`;
}

/** Mean tokens of one request: measured from the user's traffic, or typed in. */
type Traffic = { input: number; output: number; requests: number | null };

/** USD per 1,000 requests of `traffic` at an endpoint's prices; null when a price is unknown. */
export function perThousand(e: Endpoint, traffic: Traffic): number | null {
  const p = priceOf(e.pricing.prompt);
  const c = priceOf(e.pricing.completion);
  if (p === null || c === null) return null;
  return 1000 * (traffic.input * p + traffic.output * c);
}

interface ZdrRow {
  id: string;
  name: string;
  all: number;
  kept: Endpoint[];
  traffic: Traffic | null;
  perThousand: readonly [number | null, number | null];
  unknown: number;
  coverage: number | null;
  input: readonly [number | null, number | null];
  output: readonly [number | null, number | null];
  latency: readonly [number | null, number | null];
  throughput: readonly [number | null, number | null];
}

type SortKey = 'model' | 'kept' | 'unknown' | 'coverage' | 'input' | 'output' | 'latency' | 'throughput' | 'traffic';
const SORTS: Record<SortKey, (r: ZdrRow) => number | string | null> = {
  model: (r) => r.name,
  traffic: (r) => r.perThousand[1],
  kept: (r) => r.kept.length,
  unknown: (r) => r.unknown,
  coverage: (r) => r.coverage,
  input: (r) => r.input[1],
  output: (r) => r.output[1],
  latency: (r) => r.latency[1],
  throughput: (r) => r.throughput[1],
};

/** The all-endpoints → ZDR-only impact of one figure, or what is left when no endpoint is ZDR. */
const impact = (r: ZdrRow, pair: readonly [number | null, number | null], format: (v: number | null) => string) =>
  r.kept.length === 0 ? `${format(pair[0])} → none` : change(pair[0], pair[1], format);

export function ZdrScreen() {
  const zdr = useQuery(zdrEndpointsQuery());
  const models = useQuery(modelsQuery());
  // The models that can be asked here now: what zdr: true would change for them is what matters today.
  const usable = (models.data ?? []).filter((m) => m.callable_endpoints > 0);
  const keyless = (models.data ?? []).length - usable.length;
  const listings = useQueries({ queries: usable.map((m) => listingQuery(m.id, false)) });
  const details = useQueries({ queries: usable.map((m) => detailsQuery(m.id, false)) });
  const [sort, setSort] = useState<{ key: SortKey; dir: 1 | -1 }>({ key: 'model', dir: 1 });
  const traffic = useQuery(trafficQuery());
  // Typed tokens of a request, for models without traffic here yet (nothing is assumed for them).
  const [typed, setTyped] = useState({ input: '', output: '' });
  const typedTraffic: Traffic | null =
    typed.input.trim() !== '' && Number.isFinite(Number(typed.input))
      ? { input: Number(typed.input), output: Number(typed.output) || 0, requests: null }
      : null;
  const trafficOf = (model: string): Traffic | null => {
    const own = traffic.data?.models.find((m) => m.model === model);
    return own ? { input: own.input_tokens, output: own.output_tokens, requests: own.requests } : typedTraffic;
  };
  const zdrTags = new Set((zdr.data?.data ?? []).map((e) => `${e.model_id}|${e.tag}`));
  const rows: ZdrRow[] = listings
    .flatMap((q, i) => (q.data ? [{ model: q.data, details: details[i]?.data ?? [] }] : []))
    .map(({ model, details: detail }) => {
      const all = model.endpoints;
      const kept = all.filter((e) => zdrTags.has(`${e.model_id}|${e.tag}`));
      const pair = (pick: (e: Endpoint) => number | null | undefined, better: (...v: number[]) => number) =>
        [best(all.map(pick), better), best(kept.map(pick), better)] as const;
      const t = trafficOf(model.id);
      return {
        id: model.id,
        name: model.name,
        all: all.length,
        kept,
        traffic: t,
        perThousand: t ? pair((e) => perThousand(e, t), Math.min) : ([null, null] as const),
        unknown: all.filter((e) => detail.find((d) => d.tag === e.tag)?.zdr === null).length,
        coverage: all.length === 0 ? null : (100 * kept.length) / all.length,
        input: pair((e) => priceOf(e.pricing.prompt), Math.min),
        output: pair((e) => priceOf(e.pricing.completion), Math.min),
        latency: pair((e) => e.latency_last_30m?.p50, Math.min),
        throughput: pair((e) => e.throughput_last_30m?.p50, Math.max),
      };
    });
  const sorted = useMemo(
    () =>
      [...rows].sort((a, b) => {
        const va = SORTS[sort.key](a);
        const vb = SORTS[sort.key](b);
        if (va === null && vb === null) return 0;
        if (va === null) return 1;
        if (vb === null) return -1;
        return (va < vb ? -1 : va > vb ? 1 : 0) * sort.dir;
      }),
    [rows, sort],
  );
  const lost = rows.filter((r) => r.all > 0 && r.kept.length === 0);
  const unknownTotal = rows.reduce((n, r) => n + r.unknown, 0);
  const header = (key: SortKey, label: string, title?: string) => (
    <th scope="col" title={title} aria-sort={sort.key === key ? (sort.dir === 1 ? 'ascending' : 'descending') : 'none'}>
      <button type="button" className="sort-button" onClick={() => setSort((s) => ({ key, dir: s.key === key ? (s.dir === 1 ? -1 : 1) : 1 }))}>
        {label}
        <span aria-hidden="true">{sort.key === key ? (sort.dir === 1 ? ' ▲' : ' ▼') : ''}</span>
      </button>
    </th>
  );
  return (
    <>
      <ScreenHeader title="ZDR" description="Endpoints that retain no prompts (zero data retention), and what requiring them would change." />
      <SandboxNotice />
      {zdr.isPending || models.isPending ? <Loading what="ZDR endpoints" /> : null}
      {zdr.error ? <ErrorNotice error={zdr.error} title="ZDR endpoints could not be loaded" /> : null}
      {zdr.data && zdr.data.data.length === 0 ? (
        <Panel title="Zero-data-retention endpoints">
          <EmptyState title="No zero-data-retention endpoints known">
            None of the endpoints in the catalog is known to retain no prompts. A provider's policy is unknown until you record it in the catalog.
          </EmptyState>
        </Panel>
      ) : null}
      {rows.length > 0 ? (
        <Panel title="Impact of zdr: true">
          {lost.length > 0 ? (
            <div className="notice notice-warn" role="alert">
              <strong>
                {lost.length} model{lost.length === 1 ? '' : 's'} would lose every endpoint:
              </strong>
              <span>{lost.map((r) => r.name).join(', ')}. Requests for them with zdr: true fail with 404.</span>
            </div>
          ) : (
            <p className="muted">Every model keeps at least one endpoint with zdr: true.</p>
          )}
          {keyless > 0 ? (
            <p className="muted small" role="note">
              {keyless} more model{keyless === 1 ? ' is' : 's are'} listed without a provider key and not shown here; Endpoints shows each of them.
            </p>
          ) : null}
          {unknownTotal > 0 ? (
            <p className="muted small" role="note">
              {unknownTotal} endpoint{unknownTotal === 1 ? '' : 's'} of unknown ZDR status {unknownTotal === 1 ? 'is' : 'are'} left out by zdr: true, like those
              that retain prompts.
            </p>
          ) : null}
          <div className="toolbar small traffic-input">
            <span>
              Cost per 1,000 requests is priced on your own traffic: each model&apos;s requests answered here (inspector and evaluation runs), their mean
              tokens.
              {traffic.data?.all ? ` ${traffic.data.all.requests.toLocaleString('en-US')} requests measured so far.` : ' No traffic measured yet.'} For a model
              without any, price a request of
            </span>
            <input
              type="number"
              min={0}
              value={typed.input}
              onChange={(e) => setTyped({ ...typed, input: e.target.value })}
              placeholder="input"
              aria-label="Input tokens of a request"
            />
            <span>input and</span>
            <input
              type="number"
              min={0}
              value={typed.output}
              onChange={(e) => setTyped({ ...typed, output: e.target.value })}
              placeholder="output"
              aria-label="Output tokens of a request"
            />
            <span>output tokens.</span>
          </div>
          <ScrollArea label="ZDR coverage by model, scrolls sideways">
            <table className="table dense sticky-first" aria-label="ZDR coverage by model">
              <thead>
                <tr>
                  {header('model', 'Model')}
                  {header('coverage', 'ZDR endpoints', 'Endpoints known to keep no prompts, of all; unknown ones are left out by zdr: true')}
                  {header('traffic', 'Per 1,000 of your requests', 'Cheapest cost of 1,000 requests like yours, all endpoints → ZDR only')}
                  {header('input', 'Cheapest $/M in · out', 'Cheapest input and output prices, all endpoints → ZDR only, USD per million tokens')}
                  {header('latency', 'Best TTFT p50', 'Best median time to first token, last 30 minutes, all endpoints → ZDR only')}
                  {header('throughput', 'Best tok/s p50', 'Best median output tokens per second, last 30 minutes, all endpoints → ZDR only')}
                </tr>
              </thead>
              <tbody>
                {sorted.map((r) => (
                  <tr key={r.id} data-model={r.id}>
                    <th scope="row">
                      <a href={`#/endpoints?model=${encodeURIComponent(r.id)}`} title={`Endpoints of ${r.id}`}>
                        {r.name}
                      </a>
                      <div className="muted mono small">{r.id}</div>
                    </th>
                    <td>
                      <div
                        className="meter"
                        role="meter"
                        aria-valuemin={0}
                        aria-valuemax={100}
                        aria-valuenow={r.coverage ?? 0}
                        aria-label={`ZDR coverage of ${r.name}`}
                      >
                        <div className="meter-fill" style={{ width: `${r.coverage ?? 0}%` }} />
                      </div>
                      <div className="small">
                        {r.kept.length} of {r.all} · {percent(r.coverage)}
                        {r.unknown > 0 ? ` · ${r.unknown} unknown` : ''}
                      </div>
                      <div className="muted small zdr-providers">{r.kept.map((e) => e.provider_name.replace(' (simulated)', '')).join(', ') || 'none'}</div>
                    </td>
                    <td data-traffic={r.id} className="wrap impact">
                      {r.traffic ? impact(r, r.perThousand, (v) => (v === null ? UNKNOWN : formatUsd(v))) : <span className="muted">no traffic yet</span>}
                      {r.traffic ? (
                        <div className="muted small">
                          {r.traffic.requests === null
                            ? 'typed'
                            : `${r.traffic.requests.toLocaleString('en-US')} request${r.traffic.requests === 1 ? '' : 's'}`}
                          : {Math.round(r.traffic.input).toLocaleString('en-US')} in, {Math.round(r.traffic.output).toLocaleString('en-US')} out each
                        </div>
                      ) : null}
                    </td>
                    <td className="wrap impact">
                      <div>{impact(r, r.input, perMillion)}</div>
                      <div className="muted">{impact(r, r.output, perMillion)}</div>
                    </td>
                    <td className="wrap impact">{impact(r, r.latency, seconds)}</td>
                    <td className="wrap impact">{impact(r, r.throughput, tokensPerSecond)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollArea>
        </Panel>
      ) : null}
    </>
  );
}
