import { useQuery } from '@tanstack/react-query';
import { appInfoQuery } from '../features/settings/api';

/** Said on every screen with data while the simulated providers stand in for real ones. */
export function SandboxNotice() {
  const info = useQuery(appInfoQuery());
  if (!info.data?.sandbox_active) return null;
  return (
    <div className="notice notice-sim" role="note">
      <strong>Simulated providers are on.</strong>
      <span>
        No real provider is configured, so providers marked <span className="badge badge-sim">simulated</span> stand in: real loopback servers with scripted
        latency, failures and prices, answering from a word-overlap baseline, not a model. Add a provider key in <a href="#/settings">Settings</a> to use real ones.
      </span>
    </div>
  );
}
