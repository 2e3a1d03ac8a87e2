import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { CaptureRule, CaptureRuleInput, MonitorWindow } from '../../../../shared/schemas/capture';
import { call } from '../../transport/transport';
import { evalKeys } from '../evaluations';
import { settingsKeys } from '../settings';

export const capturesKeys = {
  list: ['captures', 'rules'] as const,
};

/** The rules, read again every few seconds while there are any: what each captured today moves with live traffic. */
export const capturesQuery = () =>
  queryOptions({ queryKey: capturesKeys.list, queryFn: () => call('captures.list', {}), refetchInterval: (q) => (q.state.data?.length ? 5_000 : false) });

/** The rules, the datasets (a rule may make one) and the audit log (it names each rule made or removed). */
const refresh = (queryClient: ReturnType<typeof useQueryClient>) =>
  Promise.all([capturesKeys.list, evalKeys.datasets, settingsKeys.audit].map((queryKey) => queryClient.invalidateQueries({ queryKey })));

/** Makes a rule; `onMade` hears it once the lists are read again. */
export function useCreateCaptureRule(onMade: (rule: CaptureRule) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CaptureRuleInput) => call('captures.create', input),
    onSuccess: async (rule) => {
      await refresh(queryClient);
      onMade(rule);
    },
  });
}

/** Removes a rule; what it captured stays in its dataset. */
export function useRemoveCaptureRule(onRemoved: (removed: { name: string }) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call('captures.delete', { id }),
    onSuccess: async (removed) => {
      await refresh(queryClient);
      onRemoved(removed);
    },
  });
}

/** A rule's live answers over a window beside the week before it; read again when the rule's count moves (`held`), and every 30 s while shown. */
export const captureMonitorQuery = (ruleId: string, window: MonitorWindow, held: number) =>
  queryOptions({
    queryKey: ['captures', 'monitor', ruleId, window, held] as const,
    queryFn: () => call('captures.monitor', { rule_id: ruleId, window }),
    refetchInterval: 30_000,
  });
