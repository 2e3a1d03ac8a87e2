import { kindTag, modelKind } from '../../lib/answering';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import type { OperationOutput } from '../../../../shared/contract/operations';
import type { EndpointDetail } from '../../../../shared/schemas/inspector';
import { EmptyState, ErrorNotice, Loading, Panel, ScreenHeader } from '../../ui/components';
import { SandboxNotice } from '../settings';
import { detailsQuery, listingQuery, modelsQuery, PROBE_CALLS, probeCostQuery, useProbeEndpoints } from './api';
import { EndpointCharts } from './EndpointCharts';
import { EndpointTable, type Row } from './EndpointTable';
import { RequestShape } from './RequestShape';
import { RoutePreview } from './RoutePreview';
import { UptimeChart } from './UptimeChart';
import { counted } from '../../lib/plural';
import { formatUsd } from '../../../../shared/money/format-usd';

/** What measuring will send and cost at most, said beside the button before it is pressed. */
function MeasureCost({ model }: { model: string }) {
  const cost = useQuery(probeCostQuery(model));
  if (!cost.data) return null;
  const c = cost.data;
  const usd = c.usd_at_most === null ? `a cost unknown (no price for ${c.unpriced.join(', ')})` : `at most ${formatUsd(c.usd_at_most)}`;
  return (
    <span className="small muted" id="measure-cost" data-testid="measure-cost">
      {PROBE_CALLS} calls to each of {counted(c.endpoints, 'endpoint')}: {usd}
    </span>
  );
}

/** Live updates, and measuring each endpoint now (real providers charge for it), with its cost said first. */
function MeasureActions({
  model,
  live,
  onLive,
  probe,
}: {
  model: string;
  live: boolean;
  onLive: (live: boolean) => void;
  probe: ReturnType<typeof useProbeEndpoints>;
}) {
  return (
    <>
      <label className="inline-check">
        <input type="checkbox" checked={live} onChange={(e) => onLive(e.target.checked)} /> Live (every 5 s)
      </label>
      {/* Not disabled while measuring (a disabled button drops focus): marked so, and pressed again it sends nothing. */}
      <button
        type="button"
        onClick={() => !probe.isPending && probe.mutate()}
        aria-disabled={probe.isPending || undefined}
        title="Sends 3 short requests to each endpoint; real providers charge for them"
        aria-describedby="measure-cost"
      >
        {probe.isPending ? 'Measuring…' : 'Measure now'}
      </button>
      <MeasureCost model={model} />
    </>
  );
}

/** A model's endpoints: the table, how requests are built, the charts, and a routing preview. */
function ModelPanels({
  model,
  live,
  listing,
  rows,
  details,
  unmeasured,
}: {
  model: string;
  live: boolean;
  listing: OperationOutput<'models.endpoints'>;
  rows: Row[];
  details: EndpointDetail[];
  unmeasured: { tag: string; reason: string }[];
}) {
  return (
    <>
      <Panel title={`${listing.name} — ${counted(listing.endpoints.length, 'endpoint')}`}>
        <p className="muted small">{listing.description}</p>
        <EndpointTable rows={rows} unmeasured={unmeasured} />
      </Panel>
      <Panel title="How requests are built">
        <p className="muted small">Each endpoint gets only the parameters it takes. What an endpoint refused once is left out from then on.</p>
        <RequestShape details={details} />
      </Panel>
      <Panel title="Compare providers">
        <EndpointCharts endpoints={listing.endpoints} />
        <UptimeChart model={model} live={live} />
      </Panel>
      <Panel title="Routing preview">
        <RoutePreview model={model} />
      </Panel>
    </>
  );
}

/** Every provider endpoint of a model, measured and compared. */
export function EndpointsScreen() {
  const models = useQuery(modelsQuery());
  // A link such as #/endpoints?model=author/slug (from ZDR) opens that model.
  const [model, setModel] = useState<string>(() => new URLSearchParams(window.location.hash.split('?')[1] ?? '').get('model') ?? '');
  const [live, setLive] = useState(true);
  useEffect(() => {
    if (!model && models.data && models.data.length > 0) setModel(models.data.find((m) => m.endpoint_count > 0)?.id ?? models.data[0]!.id);
  }, [model, models.data]);
  const listing = useQuery({ ...listingQuery(model, live), enabled: model !== '' });
  const details = useQuery({ ...detailsQuery(model, live), enabled: model !== '' });
  const probe = useProbeEndpoints(model);
  const rows = useMemo(
    () => (listing.data?.endpoints ?? []).map((record) => ({ record, detail: details.data?.find((d) => d.tag === record.tag) })),
    [listing.data, details.data],
  );
  return (
    <>
      <ScreenHeader
        title="Endpoints"
        description="Every provider endpoint serving a model: pricing, limits, and measured latency, throughput and uptime."
        actions={model ? <MeasureActions model={model} live={live} onLive={setLive} probe={probe} /> : null}
      />
      <SandboxNotice />
      {probe.data ? (
        <div className="notice notice-ok" role="status">
          Sent {probe.data.attempts} measuring requests, which cost{' '}
          {probe.data.spent_usd === null ? 'an unknown amount (a price is unknown)' : formatUsd(probe.data.spent_usd)}; {probe.data.failures} failed.
          {probe.data.failed.length > 0
            ? ` Not measured: ${probe.data.failed.map((f) => f.provider_name).join(', ')} (the reason is beside each in the table).`
            : ''}
        </div>
      ) : null}
      {probe.error ? <ErrorNotice error={probe.error} title="Measuring failed" /> : null}
      {models.isPending ? <Loading what="models" /> : null}
      {models.error ? <ErrorNotice error={models.error} title="Models could not be loaded" /> : null}
      {models.data && models.data.length === 0 ? (
        <Panel title="Models">
          <EmptyState title="No models in the catalog">
            Models appear here once a provider is connected. Add a provider key in <a href="#/settings">Settings</a>, or turn on the simulated providers there.
          </EmptyState>
        </Panel>
      ) : null}
      {models.data && models.data.length > 0 ? (
        <>
          <div className="toolbar">
            <label htmlFor="model-picker">Model</label>
            <select id="model-picker" value={model} onChange={(e) => setModel(e.target.value)}>
              {models.data.map((m) => (
                <option key={m.id} value={m.id} title={modelKind(m)}>
                  {m.name} ({m.id}) · {counted(m.endpoint_count, 'endpoint')} · {kindTag(m)}
                  {m.callable_endpoints === 0 ? ' · needs a key' : ''}
                </option>
              ))}
            </select>
          </div>
          {listing.error ? <ErrorNotice error={listing.error} title="Endpoints could not be loaded" /> : null}
          {listing.data ? (
            <ModelPanels model={model} live={live} listing={listing.data} rows={rows} details={details.data ?? []} unmeasured={probe.data?.failed ?? []} />
          ) : null}
        </>
      ) : null}
    </>
  );
}
