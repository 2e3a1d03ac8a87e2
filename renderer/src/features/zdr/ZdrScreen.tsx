import { useQuery } from '@tanstack/react-query';
import { call } from '../../transport/transport';
import { EmptyState, ErrorNotice, Loading, Panel, ScreenHeader } from '../../ui/components';

export function ZdrScreen() {
  const zdr = useQuery({ queryKey: ['zdr', 'endpoints'], queryFn: () => call('endpoints.zdr', {}) });
  return (
    <>
      <ScreenHeader title="ZDR" description="Endpoints that retain no prompts (zero data retention), and what requiring them would cost you." />
      <Panel title="Zero-data-retention endpoints">
        {zdr.isPending ? <Loading what="ZDR endpoints" /> : null}
        {zdr.error ? <ErrorNotice error={zdr.error} title="ZDR endpoints could not be loaded" /> : null}
        {zdr.data && zdr.data.data.length === 0 ? (
          <EmptyState title="No zero-data-retention endpoints known">
            None of the endpoints in the catalog is known to retain no prompts. Connect providers in <a href="#/settings">Settings</a>.
          </EmptyState>
        ) : null}
        {zdr.data && zdr.data.data.length > 0 ? (
          <ul className="plain-list">
            {zdr.data.data.map((e) => (
              <li key={`${e.model_id}:${e.name}`}>
                <span className="mono">{e.model_id}</span> via {e.provider_name}
              </li>
            ))}
          </ul>
        ) : null}
      </Panel>
    </>
  );
}
