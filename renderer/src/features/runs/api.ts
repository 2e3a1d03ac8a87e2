import { queryOptions } from '@tanstack/react-query';
import { call } from '../../transport/transport';

export const runQuery = (id: string) =>
  queryOptions({
    queryKey: ['runs', 'one', id],
    queryFn: () => call('runs.get', { id }),
    // Poll while it runs, for progress; a finished run does not change.
    refetchInterval: (q) => (q.state.data?.status === 'running' ? 400 : false),
  });
