import { useEffect, useRef } from 'react';
import type { EvalRun } from '../../../../shared/schemas/evaluation';
import { formatUsd } from '../../../../shared/money/format-usd';
import { announce } from '../../ui/announcer';

type RunFigures = Pick<EvalRun, 'name' | 'status' | 'done' | 'total' | 'failed' | 'spent_usd' | 'message'>;

const HOW: Record<EvalRun['status'], string> = {
  running: 'is running',
  paused: 'paused',
  done: 'finished',
  failed: 'failed',
  cancelled: 'was cancelled',
  budget: 'stopped at its budget',
};

/** What is said when a run stops sending: how it ended, how far it got, what failed and what it cost. */
export function runEndText(run: RunFigures): string {
  const failed = run.failed > 0 ? `, ${run.failed.toLocaleString('en-US')} failed` : '';
  const message = run.message ? ` ${run.message}` : '';
  return `Run “${run.name}” ${HOW[run.status]}: ${run.done.toLocaleString('en-US')} of ${run.total.toLocaleString('en-US')} done${failed}, ${formatUsd(run.spent_usd)} spent.${message}`;
}

/**
 * Announces the run's end once, in the app's live region, when it is seen to stop sending (it was
 * running, or had requests out, and now has neither): not for a run that was already over when
 * first shown.
 */
export function useAnnounceRunEnd(run: EvalRun | null | undefined): void {
  const seen = useRef<{ id: string; sending: boolean } | null>(null);
  const sending = run ? run.status === 'running' || run.in_flight > 0 : false;
  useEffect(() => {
    if (!run) return;
    const before = seen.current;
    seen.current = { id: run.id, sending };
    if (before?.id === run.id && before.sending && !sending) announce(runEndText(run));
    // The figures said are those of the render that saw it stop.
  }, [run?.id, sending]);
}
