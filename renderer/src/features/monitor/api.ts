import { queryOptions } from '@tanstack/react-query';
import type { CaptureMonitorInput } from '../../../../shared/schemas/capture';
import { call } from '../../transport/transport';

/** Live answers of a set or a rule over a window beside its reference; read again every 30 s while shown, the last figures kept meanwhile. */
export const monitorQuery = (input: CaptureMonitorInput) =>
  queryOptions({
    queryKey: ['captures', 'monitor', input] as const,
    queryFn: () => call('captures.monitor', input),
    refetchInterval: 30_000,
  });
