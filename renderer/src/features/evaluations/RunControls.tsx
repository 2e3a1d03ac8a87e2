import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import type { EvalRun } from '../../../../shared/schemas/evaluation';
import { formatUsd } from '../../../../shared/money/format-usd';
import { call } from '../../transport/transport';
import { firstClick, once, onceConfirmed } from '../../lib/send-once';
import { ErrorNotice } from '../../ui/components';
import { Toolbar } from '../../ui/Toolbar';
import { evalKeys, forgetRuns } from './api';

/** How far a run is, as a progress bar with its value (not a live region: the end of the run is announced once). */
export function Progress({ run }: { run: EvalRun }) {
  const eta = run.eta_ms === null ? '' : ` · about ${Math.ceil(run.eta_ms / 1000)} s left`;
  const waiting = run.waiting_ms === null ? '' : ` · waiting ${Math.ceil(run.waiting_ms / 1000)} s: a provider asked to slow down (429, Retry-After)`;
  // Paused or stopped, the requests already sent are still answered (and paid for): say so until they are in.
  const finishing =
    run.status !== 'running' && run.in_flight > 0
      ? ` · ${run.in_flight} sent before the ${run.status === 'paused' ? 'pause' : 'stop'}, still being answered`
      : '';
  return (
    <div
      className="progress"
      role="progressbar"
      aria-valuemin={0}
      aria-valuemax={run.total}
      aria-valuenow={run.done}
      aria-valuetext={`${run.done.toLocaleString('en-US')} of ${run.total.toLocaleString('en-US')} items done`}
      aria-label="Items done"
    >
      <span className="progress-fill" style={{ width: `${(100 * run.done) / Math.max(1, run.total)}%` }} />
      <span className="progress-text">
        {run.done.toLocaleString('en-US')} of {run.total.toLocaleString('en-US')} done · {run.failed} failed · {formatUsd(run.spent_usd)} spent
        {run.status === 'running' ? `${eta}${waiting}` : finishing}
      </span>
    </div>
  );
}

/** Pause, resume, retry, cancel or delete the run: one toolbar, one Tab stop. */
export function Controls({ run }: { run: EvalRun }) {
  const queryClient = useQueryClient();
  // Set in the click's own event: a double click pauses, resumes or retries once.
  const held = useRef(false);
  const act = useMutation({
    mutationFn: (action: 'evals.pause' | 'evals.resume' | 'evals.cancel' | 'uncapped') =>
      action === 'uncapped' ? call('evals.resume', { id: run.id, budget_usd: null }) : call(action, { id: run.id }),
    onSuccess: (fresh) => {
      // Its new status at once, so the buttons that no longer apply go before anyone clicks them again.
      queryClient.setQueryData(evalKeys.run(run.id), fresh);
      void queryClient.invalidateQueries({ queryKey: evalKeys.all });
    },
  });
  const remove = useMutation({
    mutationFn: () => call('evals.delete', { id: run.id }),
    onSuccess: async () => {
      await forgetRuns(queryClient, [run.id]);
      void queryClient.invalidateQueries({ queryKey: evalKeys.runs, exact: true });
    },
  });
  const send = (action: 'evals.pause' | 'evals.resume' | 'uncapped') => once(held, () => act.mutateAsync(action));
  const results = `${run.done.toLocaleString('en-US')} ${run.done === 1 ? 'result' : 'results'}${run.failed > 0 ? ` (${run.failed.toLocaleString('en-US')} failed)` : ''}`;
  const deleteRun = () =>
    onceConfirmed(held, `Delete the run “${run.name}” and its ${results}? Its answers and metrics cannot be brought back.`, () => remove.mutateAsync());
  // Cancelling cannot be undone (a cancelled run is not resumed), unlike a pause: asked first.
  const cancelRun = () =>
    onceConfirmed(
      held,
      `Cancel the run “${run.name}”? Requests in flight are stopped and the items not yet sent are never sent: a cancelled run cannot be resumed (Pause can). Its ${results} so far stay.`,
      () => act.mutateAsync('evals.cancel'),
    );
  const busy = act.isPending || remove.isPending;
  return (
    <>
      <Toolbar label="Run">
        {run.status === 'running' ? (
          <button type="button" className="secondary" disabled={busy} onClick={firstClick(() => send('evals.pause'))}>
            Pause
          </button>
        ) : null}
        {run.status === 'budget' ? (
          <button type="button" className="secondary" disabled={busy} onClick={firstClick(() => send('uncapped'))}>
            Resume without a budget
          </button>
        ) : null}
        {run.status === 'paused' || run.status === 'failed' ? (
          <button type="button" className="secondary" disabled={busy} onClick={firstClick(() => send('evals.resume'))}>
            Resume
          </button>
        ) : null}
        {run.status === 'done' && run.retryable > 0 ? (
          <button
            type="button"
            className="secondary"
            disabled={busy}
            onClick={firstClick(() => send('evals.resume'))}
            title="Send the failed items again; answers already stored are not sent again"
          >
            Retry {run.retryable.toLocaleString('en-US')} failed
          </button>
        ) : null}
        {run.status === 'running' || run.status === 'paused' ? (
          <button type="button" className="secondary" disabled={busy} onClick={firstClick(cancelRun)}>
            Cancel
          </button>
        ) : (
          <button type="button" className="secondary" disabled={busy} onClick={firstClick(deleteRun)}>
            Delete run
          </button>
        )}
      </Toolbar>
      {act.error ? <ErrorNotice error={act.error} /> : null}
      {remove.error ? <ErrorNotice error={remove.error} title="Not deleted" /> : null}
    </>
  );
}
