import { useQuery } from '@tanstack/react-query';
import { EmptyState, ErrorNotice, Loading, Panel, ScreenHeader } from '../../ui/components';
import { modelsQuery } from './api';

export function EndpointsScreen() {
  const models = useQuery(modelsQuery());
  return (
    <>
      <ScreenHeader
        title="Endpoints"
        description="Every provider endpoint serving a model: pricing, limits, and measured latency, throughput and uptime."
      />
      <Panel title="Models">
        {models.isPending ? <Loading what="models" /> : null}
        {models.error ? <ErrorNotice error={models.error} title="Models could not be loaded" /> : null}
        {models.data && models.data.length === 0 ? (
          <EmptyState title="No models in the catalog">
            Models appear here once a provider is connected. Add a provider key in <a href="#/settings">Settings</a>.
          </EmptyState>
        ) : null}
        {models.data && models.data.length > 0 ? (
          <ul className="plain-list">
            {models.data.map((m) => (
              <li key={m.id}>
                <span className="mono">{m.id}</span> <span className="muted">{m.endpoint_count} endpoints</span>
              </li>
            ))}
          </ul>
        ) : null}
      </Panel>
    </>
  );
}
