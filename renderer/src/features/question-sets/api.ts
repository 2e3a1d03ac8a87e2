import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { OperationInput, OperationOutput } from '../../../../shared/contract/operations';
import { call } from '../../transport/transport';
import { evalKeys } from '../evaluations';

export const setsKeys = {
  all: ['question-sets'] as const,
  list: ['question-sets', 'list'] as const,
  one: (id: string) => ['question-sets', 'one', id] as const,
};

export const setsQuery = () => queryOptions({ queryKey: setsKeys.list, queryFn: () => call('sets.list', {}) });
export const setQuery = (id: string) => queryOptions({ queryKey: setsKeys.one(id), queryFn: () => call('sets.get', { id }) });

/** A set by id and name, as the list names it. */
type Named = { id: string; name: string };

/** Deletes a set (it can be restored); `onDeleted` hears which, for the undo. */
export function useDeleteSet(onDeleted: (set: Named) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (s: Named) => call('sets.delete', { id: s.id }).then(() => s),
    onSuccess: (s) => {
      onDeleted(s);
      return queryClient.invalidateQueries({ queryKey: setsKeys.all });
    },
  });
}

export function useRestoreSet(onRestored: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call('sets.restore', { id }),
    onSuccess: () => {
      onRestored();
      return queryClient.invalidateQueries({ queryKey: setsKeys.all });
    },
  });
}

/** Saves a copy of a set as it is saved, named "(copy)"; `onCopied` hears the copy's id. */
export function useDuplicateSet(onCopied: (id: string) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      const set = await call('sets.get', { id });
      return call('sets.save', { name: `${set.name} (copy)`, request: set.request, cascade: set.cascade });
    },
    onSuccess: (s) => {
      onCopied(s.id);
      return queryClient.invalidateQueries({ queryKey: setsKeys.all });
    },
  });
}

/** A save's answer with the draft it saved (`from`: its id then, undefined for a new set). */
export interface SetSaved {
  from: string | undefined;
  saved: OperationOutput<'sets.save'>;
}

/** Saves a set; `onSaved` hears what was saved from which draft. */
export function useSaveSet(onSaved: (saved: SetSaved) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ from, set }: { from: string | undefined; set: OperationInput<'sets.save'> }): Promise<SetSaved> => ({
      from,
      saved: await call('sets.save', set),
    }),
    onSuccess: (result) => {
      onSaved(result);
      return queryClient.invalidateQueries({ queryKey: setsKeys.all });
    },
  });
}

/** One run to start, under the key the grid keeps its id by. */
export interface TryRun {
  key: string;
  input: OperationInput<'runs.start'>;
}

/** Starts every run at once; answers the started runs' ids by key. */
export function useTryRuns(onStarted: (ids: Record<string, string>) => void) {
  return useMutation({
    mutationFn: async (runs: readonly TryRun[]) => {
      const started: Record<string, string> = {};
      await Promise.all(
        runs.map(async ({ key, input }) => {
          const run = await call('runs.start', input);
          started[key] = run.id;
        }),
      );
      return started;
    },
    onSuccess: (ids) => onStarted(ids),
  });
}

/** Saves examples as a dataset, which Evaluations then lists. */
export function useSaveExamplesAsDataset() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (dataset: OperationInput<'datasets.import'>) => call('datasets.import', dataset),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: evalKeys.datasets }),
  });
}
