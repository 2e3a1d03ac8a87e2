import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OperationOutput } from '../../../../shared/contract/operations';
import { call } from '../../transport/transport';
import { evalKeys } from '../evaluations';
import { setsKeys } from '../question-sets';

/** Adds the sample question set and dataset; both lists are read again. */
export function useAddSamples(onAdded: (added: OperationOutput<'samples.add'>) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call('samples.add', {}),
    onSuccess: (added) => {
      void queryClient.invalidateQueries({ queryKey: setsKeys.all });
      void queryClient.invalidateQueries({ queryKey: evalKeys.datasets });
      onAdded(added);
    },
  });
}

/** Removes the samples, with the evaluation runs made on the sample dataset: any list may change. */
export function useRemoveSamples() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call('samples.remove', {}),
    onSuccess: () => void queryClient.invalidateQueries(),
  });
}
