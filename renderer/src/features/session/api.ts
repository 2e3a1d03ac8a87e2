import { queryOptions } from '@tanstack/react-query';
import { currentSession } from '../../transport/transport';

export const sessionKeys = { current: ['session', 'current'] as const };

/** Who the browser is signed in as (null on the desktop). */
export const sessionQuery = () => queryOptions({ queryKey: sessionKeys.current, queryFn: currentSession, staleTime: 60_000 });
