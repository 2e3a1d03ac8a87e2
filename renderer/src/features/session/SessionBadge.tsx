import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { signOut } from '../../transport/transport';
import { sessionQuery } from './api';

/** Who this browser is signed in as, with a way to sign out (browser mode; nothing on the desktop). */
export function SessionBadge() {
  const queryClient = useQueryClient();
  const session = useQuery(sessionQuery());
  const out = useMutation({
    mutationFn: signOut,
    // Every answer now belongs to nobody: ask again, and the sign-in screen follows from the 401.
    onSuccess: () => queryClient.resetQueries(),
  });
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
