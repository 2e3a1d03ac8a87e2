import { formatUsd } from '../../../../shared/money/format-usd';

/** Why the budget stopped a run. */
export interface BudgetStop {
  /** USD the run spent, every request in flight at the stop included */
  spent: number;
  /** the most the refused request could have cost (every endpoint of its plan, replies at their longest) */
  worstCase: number;
}

/** Money in a sentence (shared/money/format-usd.ts); nothing, or less, is $0. */
export const usdText = (v: number) => formatUsd(Math.max(0, v), { trimZeros: true });

/** The run's message when its budget stopped it: what was spent, and why the next request was not sent. */
export function budgetMessage(budget: number, stop: BudgetStop | null): string {
  const head = `Stopped before the budget of ${usdText(budget)} would be exceeded`;
  if (!stop) return head;
  const left = Math.max(0, budget - stop.spent);
  return `${head}: ${usdText(stop.spent)} spent; the next request could cost up to ${usdText(stop.worstCase)} if every endpoint of its route were tried with the longest replies, more than the ${usdText(left)} left`;
}

/** The most a request can cost, as a budget holds it: an unknown worst case holds nothing. */
export function worstCaseOf(maxCost: () => number): number {
  const most = maxCost();
  return Number.isFinite(most) ? most : 0;
}
