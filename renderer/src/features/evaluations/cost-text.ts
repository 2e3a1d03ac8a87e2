import type { EvalRun } from '../../../../shared/schemas/evaluation';
import { formatUsd } from '../../../../shared/money/format-usd';

/** How far an actual figure is from what was expected, as a signed percentage of the expected one. */
export function offBy(actual: number, expected: number): string {
  if (expected === 0) return actual === 0 ? 'as expected' : 'expected nothing';
  const pct = ((actual - expected) / expected) * 100;
  return `${pct >= 0 ? '+' : '−'}${Math.abs(pct).toFixed(Math.abs(pct) < 10 ? 1 : 0)}% against the expected cost`;
}

/**
 * What a run was expected to cost against what it costs: the estimate it started with (expected with
 * its likely range, and the worst case, each named), the expectation refined from its answered items
 * while it runs (never below what is spent), and once it ends, the actual spend beside the expected one.
 */
export function costLines(run: EvalRun, options: { short?: boolean } = {}): string[] {
  const lines: string[] = [];
  const e = run.estimate;
  if (e) {
    const likely = e.low_usd != null && e.high_usd != null ? ` (likely ${formatUsd(e.low_usd)} – ${formatUsd(e.high_usd)})` : '';
    const expected = e.expected_usd === null ? 'expected cost unknown (a price is unknown)' : `expected ${formatUsd(e.expected_usd)}${likely}`;
    const worst = e.worst_usd === null ? 'worst case unknown' : `worst case ${formatUsd(e.worst_usd)}`;
    lines.push(
      `Estimate at the start: ${expected} · ${worst}${options.short ? '' : ' (every request tried on every endpoint of its route with the longest replies)'}`,
    );
  }
  const finished = run.status !== 'running' && run.in_flight === 0;
  if (finished && run.done === run.total && e?.expected_usd !== null && e?.expected_usd !== undefined) {
    const range =
      e.low_usd != null && e.high_usd != null
        ? run.spent_usd >= e.low_usd && run.spent_usd <= e.high_usd
          ? ', inside the likely range'
          : ', outside the likely range'
        : '';
    lines.push(`Actual: ${formatUsd(run.spent_usd)}, ${offBy(run.spent_usd, e.expected_usd)}${range}`);
  } else if (run.expected_usd !== null && !finished) {
    lines.push(
      `Expected now: ${formatUsd(run.expected_usd)} for all ${run.total.toLocaleString('en-US')} requests: ${formatUsd(run.spent_usd)} spent so far, and the requests left at what the ${run.expected_from.toLocaleString('en-US')} answered ones cost each`,
    );
  } else {
    lines.push(
      `Spent: ${formatUsd(run.spent_usd)}${run.done < run.total ? ` on ${run.done.toLocaleString('en-US')} of ${run.total.toLocaleString('en-US')} requests` : ''}`,
    );
  }
  return lines;
}
