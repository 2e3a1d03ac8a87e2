import { useQuery } from '@tanstack/react-query';
import { sessionQuery, useSignOut } from './api';

/** Who this browser is signed in as, with a way to sign out (browser mode; nothing on the desktop). */
export function SessionBadge() {
  const session = useQuery(sessionQuery());
  const out = useSignOut();
  if (!session.data) return null;
  const who = session.data.kind === 'management_key' ? session.data.key_name : 'the printed link';
  return (
    <div className="session-badge" data-testid="session-badge">
      <span className="small">
        Signed in as <strong>{who}</strong>
      </span>
      <button type="button" className="secondary small" onClick={() => out.mutate()} disabled={out.isPending}>
        Sign out
      </button>
    </div>
  );
}
