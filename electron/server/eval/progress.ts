import type { EvalRun } from '../../../shared/schemas/evaluation';
import { usdText } from '../../core';

/** One line of progress on stderr: items done and failed, spend, time left, and a wait on a 429 when there is one. */
export function progressBar(run: EvalRun): string {
  const width = 30;
  const filled = run.total ? Math.round((run.done / run.total) * width) : 0;
  const eta = run.eta_ms === null ? '' : `, ETA ${Math.ceil(run.eta_ms / 1000)} s`;
  const waiting = run.waiting_ms === null ? '' : `, waiting ${Math.ceil(run.waiting_ms / 1000)} s (a provider answered 429 with Retry-After)`;
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${run.done}/${run.total} done, ${run.failed} failed, ${usdText(run.spent_usd)} spent${eta}${waiting}`;
}

/** Options for the simulated providers from the environment (demos and tests). */
export function sandboxOptions(): { sandbox?: { timeScale?: number; failures?: boolean } } {
  const scale = process.env['VERDICT_SANDBOX_TIME_SCALE'];
  const failures = process.env['VERDICT_SANDBOX_FAILURES'];
  const sandbox: { timeScale?: number; failures?: boolean } = {};
  if (scale !== undefined && Number.isFinite(Number(scale)) && Number(scale) >= 0) sandbox.timeScale = Number(scale);
  if (failures === 'on' || failures === 'off') sandbox.failures = failures === 'on';
  return Object.keys(sandbox).length ? { sandbox } : {};
}
