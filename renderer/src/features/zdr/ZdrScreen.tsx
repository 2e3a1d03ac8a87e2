import { useQueries, useQuery } from '@tanstack/react-query';
import { call } from '../../transport/transport';
import type { Endpoint } from '../../../../shared/schemas/endpoint';
import { EmptyState, ErrorNotice, Loading, Panel, ScreenHeader } from '../../ui/components';
import { percent, perMillion, seconds, UNKNOWN } from '../../ui/format';
import { listingQuery, modelsQuery } from '../endpoints/api';
import { SandboxNotice } from '../../app/SandboxNotice';

const price = (e: Endpoint): number | null => (e.pricing.prompt === '-1' ? null : Number(e.pricing.prompt));
const min = (values: (number | null | undefined)[]): number | null => {
  const known = values.filter((v): v is number => typeof v === 'number');
  return known.length === 0 ? null : Math.min(...known);
};

function change(before: number | null, after: number | null, format: (v: number | null) => string): string {
  if (before === null && after === null) return 'not measured';
  if (before === null || after === null) return `${format(before)} → ${format(after)}`;
  const delta = before === 0 ? 0 : ((after - before) / before) * 100;
  return `${format(before)} → ${format(after)} (${delta >= 0 ? '+' : ''}${delta.toFixed(0)}%)`;
}

export function ZdrScreen() {
  const zdr = useQuery({ queryKey: ['zdr', 'endpoints'], queryFn: () => call('endpoints.zdr', {}) });
  const models = useQuery(modelsQuery());
  const listings = useQueries({ queries: (models.data ?? []).map((m) => listingQuery(m.id, false)) });
  const zdrTags = new Set((zdr.data?.data ?? []).map((e) => `${e.model_id}|${e.tag}`));
  const rows = listings.flatMap((q) => (q.data ? [q.data] : [])).map((model) => {
    const all = model.endpoints;
    const kept = all.filter((e) => zdrTags.has(`${e.model_id}|${e.tag}`));
    return {
      id: model.id,
      name: model.name,
      all: all.length,
      kept,
      coverage: all.length === 0 ? null : (100 * kept.length) / all.length,
      price: [min(all.map(price)), min(kept.map(price))] as const,
      latency: [min(all.map((e) => e.latency_last_30m?.p50)), min(kept.map((e) => e.latency_last_30m?.p50))] as const,
    };
  });
  const lost = rows.filter((r) => r.all > 0 && r.kept.length === 0);
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
          <table className="table dense" aria-label="ZDR coverage by model">
            <thead>
              <tr>
                <th scope="col">Model</th>
                <th scope="col">ZDR endpoints</th>
                <th scope="col">Coverage</th>
                <th scope="col" title="Cheapest input price, all endpoints → ZDR only, USD per million tokens">Cheapest input $/M</th>
                <th scope="col" title="Best median time to first token, last 30 minutes">Best TTFT p50</th>
                <th scope="col">ZDR providers</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id} data-model={r.id}>
                  <th scope="row">
                    {r.name}
                    <div className="muted mono small">{r.id}</div>
                  </th>
                  <td className="num">
                    {r.kept.length} of {r.all}
                  </td>
                  <td>
                    <div className="meter" role="meter" aria-valuemin={0} aria-valuemax={100} aria-valuenow={r.coverage ?? 0} aria-label={`ZDR coverage of ${r.name}`}>
                      <div className="meter-fill" style={{ width: `${r.coverage ?? 0}%` }} />
                    </div>
                    <span className="small">{percent(r.coverage)}</span>
                  </td>
                  <td>{r.kept.length === 0 ? `${perMillion(r.price[0])} → none` : change(r.price[0], r.price[1], perMillion)}</td>
                  <td>{r.kept.length === 0 ? `${seconds(r.latency[0])} → none` : change(r.latency[0], r.latency[1], seconds)}</td>
                  <td className="wrap">{r.kept.map((e) => e.provider_name).join(', ') || UNKNOWN}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Panel>
      ) : null}
    </>
  );
}
