import { useQueries, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { EmptyState, ErrorNotice, Loading, Panel, ScreenHeader } from '../../ui/components';
import { detailsQuery, listingQuery, modelsQuery } from '../endpoints';
import { SandboxNotice } from '../settings';
import { trafficQuery, zdrCostQuery, zdrEndpointsQuery } from './api';
import { sortRows, zdrRow, type Sort } from './impact';
import { TrafficInput } from './TrafficInput';
import { ZdrTable } from './ZdrTable';

/** What requiring zero-data-retention endpoints would change, per model that can be asked here now. */
export function ZdrScreen() {
  const zdr = useQuery(zdrEndpointsQuery());
  const models = useQuery(modelsQuery());
  // The models that can be asked here now: what zdr: true would change for them is what matters today.
  const usable = (models.data ?? []).filter((m) => m.callable_endpoints > 0);
  const keyless = (models.data ?? []).length - usable.length;
  const listings = useQueries({ queries: usable.map((m) => listingQuery(m.id, false)) });
  const details = useQueries({ queries: usable.map((m) => detailsQuery(m.id, false)) });
  const [sort, setSort] = useState<Sort>({ key: 'model', dir: 1 });
  const traffic = useQuery(trafficQuery());
  // Typed tokens of a request, for models without traffic here yet (nothing is assumed for them).
  const [typed, setTyped] = useState({ input: '', output: '' });
  const typedTokens =
    typed.input.trim() !== '' && Number.isFinite(Number(typed.input)) && Number(typed.input) >= 0
      ? { input_tokens: Number(typed.input), output_tokens: Math.max(0, Number(typed.output) || 0) }
      : null;
  // Priced by the core's cost model as routing sends requests; the list price beside it.
  const costs = useQuery(zdrCostQuery(typedTokens));
  const costOf = (model: string) => costs.data?.find((c) => c.model === model) ?? null;
  const zdrTags = new Set((zdr.data?.data ?? []).map((e) => `${e.model_id}|${e.tag}`));
  const rows = listings
    .flatMap((q, i) => (q.data ? [{ model: q.data, details: details[i]?.data ?? [] }] : []))
    .map(({ model, details: detail }) => zdrRow({ model, details: detail, cost: costOf(model.id) }, zdrTags));
  const sorted = useMemo(() => sortRows(rows, sort), [rows, sort]);
  const lost = rows.filter((r) => r.all > 0 && r.kept.length === 0);
  const unknownTotal = rows.reduce((n, r) => n + r.unknown, 0);
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
          <TrafficInput traffic={traffic.data} typed={typed} onTyped={setTyped} />
          <ZdrTable rows={sorted} sort={sort} onSort={setSort} />
        </Panel>
      ) : null}
    </>
  );
}
