import type { EvalEstimate } from '../../../shared/schemas/evaluation';
import { usdText } from '../../core';
import { bad } from './bad-input';

/**
 * Says what one request can cost at worst per model (what a budget holds for it before sending
 * it), and refuses a budget below the largest of them: such a run stops at its first request of
 * that model, before sending it, so a pipeline would pay for an import and a run that cannot
 * complete. A budget below the estimate only warns: the run may still finish under it.
 */
export function checkBudget(estimate: EvalEstimate, budget: number | null): void {
  const on = estimate.worst_request_item === null ? '' : ` (on item ${estimate.worst_request_item}, the largest in the dataset)`;
  for (const v of estimate.per_variant) {
    process.stderr.write(
      `${v.variant}: one request can cost up to ${v.worst_request_usd === null ? `an unknown amount (${v.worst_request_note ?? 'unknown'})` : usdText(v.worst_request_usd)}${on}, every endpoint of its route tried with the longest replies; a budget holds that much for it before sending it\n`,
    );
  }
  if (estimate.min_budget_usd !== null) process.stderr.write(`Smallest budget that lets every model send a request: ${usdText(estimate.min_budget_usd)}\n`);
  if (budget === null) return;
  if (estimate.min_budget_usd === null) {
    process.stderr.write(
      `Warning: the smallest budget that lets the run send anything is unknown; the run stops at a request whose worst case is above what is left of --budget ${usdText(budget)}\n`,
    );
    return;
  }
  if (budget < estimate.min_budget_usd) {
    const worst = estimate.per_variant.reduce((a, b) => ((b.worst_request_usd ?? 0) > (a.worst_request_usd ?? 0) ? b : a));
    bad(
      `--budget ${usdText(budget)} is below what one request of ${worst.variant} can cost at worst (${usdText(worst.worst_request_usd!)}), which a budget holds before sending it: the run would stop at that request without sending it. Nothing was run; use --budget ${usdText(estimate.min_budget_usd)} or more, or no --budget.`,
      false,
    );
  }
  if (estimate.cost_usd !== null && budget < estimate.cost_usd)
    process.stderr.write(
      `Warning: --budget ${usdText(budget)} is below the estimate (about ${usdText(estimate.cost_usd)}): the run will likely stop before it ends\n`,
    );
}
