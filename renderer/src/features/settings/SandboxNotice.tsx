import { useQuery } from '@tanstack/react-query';
import { appInfoQuery } from './api';

/**
 * Said on every screen with data while the simulated providers stand in for real ones: one line,
 * with what they are one click away, so the screen's own work keeps its place. The link to Settings
 * sits beside the disclosure, never inside its summary: a control in a control is not reachable as
 * itself by a screen reader.
 */
export function SandboxNotice() {
  const info = useQuery(appInfoQuery());
  if (!info.data?.sandbox_active) return null;
  return (
    <div className="notice notice-sim sandbox-line" role="note">
      <span>
        <strong>Simulated providers are on</strong> <span className="muted">· no real provider is configured;</span>{' '}
        <a href="#/settings">add a key in Settings</a>
      </span>
      <details>
        <summary>What are they?</summary>
        <span>
          Providers marked <span className="badge badge-sim">simulated</span> stand in: real loopback servers with scripted latency, failures and prices,
          answering from a word-overlap baseline, not a model. Their models differ on purpose (a sharp but dear one, a cheap overconfident one, one that misses
          the rare class), so a model choice can be rehearsed.
        </span>
      </details>
    </div>
  );
}
