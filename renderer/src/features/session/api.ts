import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { currentSession, OperationError, signIn, signOut } from '../../transport/transport';

export const sessionKeys = { current: ['session', 'current'] as const };

/** Who the browser is signed in as (null on the desktop). */
export const sessionQuery = () => queryOptions({ queryKey: sessionKeys.current, queryFn: currentSession, staleTime: 60_000 });

/** The refusal that means this browser has no session (never signed in, signed out, revoked, expired), or null. */
export const sessionRefusal = (error: unknown): OperationError | null => (error instanceof OperationError && error.code === 401 ? error : null);

/** What a refused sign-in means for the person in front of the form. */
export function refusalTitle(error: unknown): string {
  if (!(error instanceof OperationError)) return 'Not signed in';
  if (error.code === 403) return 'A standard key cannot sign in';
  if (error.code === 401) return /revoked/.test(error.message) ? 'This key was revoked' : 'That key was not recognised';
  if (error.code === 400) return 'Paste a key first';
  return 'Not signed in';
}

/** Signs this browser in with a management key; everything asked before was refused, so it is asked again. */
export function useSignIn(key: string, onSignedIn: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => signIn(key),
    onSuccess: () => {
      onSignedIn();
      // Everything asked before signing in was refused: ask again as the signed-in key.
      return queryClient.resetQueries();
    },
  });
}

/** Signs this browser out. */
export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signOut,
    // Every answer now belongs to nobody: ask again, and the sign-in screen follows from the 401.
    onSuccess: () => queryClient.resetQueries(),
  });
}
