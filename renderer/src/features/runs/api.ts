import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { DecisionsRequest } from '../../../../shared/schemas/decisions-request';
import type { Run } from '../../../../shared/schemas/inspector';
import { call } from '../../transport/transport';

export const runsKeys = {
  all: ['runs'] as const,
  one: (id: string) => ['runs', 'one', id] as const,
  list: (model: string, status: '' | Run['status']) => ['runs', 'list', model, status] as const,
};

export const runQuery = (id: string) =>
  queryOptions({
    queryKey: runsKeys.one(id),
    queryFn: () => call('runs.get', { id }),
    // Poll while it runs, for progress; a finished run does not change.
    refetchInterval: (q) => (q.state.data?.status === 'running' ? 400 : false),
  });

/** The history, filtered by model and status (empty: any). */
export const runsListQuery = (model: string, status: '' | Run['status']) =>
  queryOptions({
    queryKey: runsKeys.list(model, status),
    queryFn: () => call('runs.list', { ...(model ? { model } : {}), ...(status ? { status } : {}), limit: 500 }),
    // Quick while something runs, so its row catches up with its detail; slow otherwise.
    refetchInterval: (q) => (q.state.data?.some((r) => r.status === 'running') ? 500 : 5_000),
  });

export function useCancelRun(id: string) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: () => call('runs.cancel', { id }), onSuccess: () => queryClient.invalidateQueries({ queryKey: runsKeys.all }) });
}

export function useDeleteRun(onDeleted: (id: string) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (run: Run) => call('runs.delete', { id: run.id }),
    onSuccess: ({ id }) => {
      onDeleted(id);
      return queryClient.invalidateQueries({ queryKey: runsKeys.all });
    },
  });
}

/** Sends a past run's request again, as a new run opened at once. */
export function useRerun() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (run: Run) =>
      call('runs.start', {
        request: run.request as DecisionsRequest,
        ...(run.set_id ? { set_id: run.set_id } : {}),
        ...(run.label ? { label: run.label } : {}),
      }),
    onSuccess: (run) => {
      window.location.hash = `#/runs?run=${run.id}`;
      return queryClient.invalidateQueries({ queryKey: runsKeys.all });
    },
  });
}
