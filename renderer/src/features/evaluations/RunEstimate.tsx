import type { ReactNode } from 'react';
import type { EvalEstimate } from '../../../../shared/schemas/evaluation';
import { formatUsd } from '../../../../shared/money/format-usd';

/** The variant whose one request costs the most at worst, when the budget is below that (the smallest budget that lets every variant send). */
export function budgetShortfall(estimate: EvalEstimate | null, budget: number | null): EvalEstimate['per_variant'][number] | null {
  if (!estimate || budget === null || estimate.min_budget_usd === null || budget >= estimate.min_budget_usd) return null;
  return estimate.per_variant.reduce((a, b) => ((b.worst_request_usd ?? 0) > (a.worst_request_usd ?? 0) ? b : a));
}

const usdOrUnknown = (usd: number | null): string => (usd === null ? 'unknown' : formatUsd(usd));

/** One figure of the estimate: its term and its value. */
function Figure({ term, testId, children }: { term: string; testId: string; children: ReactNode }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd className="mono" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

interface Props {
  estimate: EvalEstimate;
  /** Per variant in the estimate's order, whether it is a cascade. */
  cascade: boolean[];
  /** What a variant is called here: model, preference set or variant. */
  variantWord: string;
}

/** The estimate of a run as the core gave it: expected and worst cost, requests and tokens, per variant, and what a budget holds for one request. */
export function RunEstimate({ estimate, cascade, variantWord }: Props) {
  const cascadeRows = estimate.per_variant.filter((_, i) => cascade[i]);
  return (
    <>
      <div className="notice estimate" role="status" aria-label="Estimate">
        <dl className="estimate-figures">
          <Figure term="Expected cost" testId="expected-cost">
            {usdOrUnknown(estimate.cost_usd)}
          </Figure>
          {estimate.cost_low_usd !== null && estimate.cost_high_usd !== null ? (
            <Figure term="Likely" testId="likely-cost">
              {formatUsd(estimate.cost_low_usd)} – {formatUsd(estimate.cost_high_usd)}
            </Figure>
          ) : null}
          <Figure term="Worst case" testId="worst-case">
            {usdOrUnknown(estimate.worst_usd)}
          </Figure>
        </dl>
        <span>
          {estimate.calls.toLocaleString('en-US')} requests ({estimate.items} items × {estimate.per_variant.length}{' '}
          {estimate.per_variant.length === 1 ? variantWord : `${variantWord}s`})
          {cascadeRows.length > 0 ? ", and a cascade's second stage where its condition holds" : ''} · about {estimate.input_tokens.toLocaleString('en-US')}{' '}
          input and {estimate.output_tokens.toLocaleString('en-US')} output tokens. Expected: each request as it would be built, counted as its endpoint counts
          tokens ({estimate.sampled === estimate.items ? 'every item' : `${estimate.sampled} items spread over the dataset`} priced one by one), sent through
          routing as it would send them: a fault keeps an endpoint out of load balancing for 30 s and its traffic goes to dearer ones, so one run costs more or
          less than another. Likely: nineteen runs in twenty cost within this range ({rateNote(estimate)}). Once the run starts, the expected cost is what is
          spent plus the items left at what the answered ones cost. Worst case: every request tried on every endpoint of its route with the longest replies; the
          run cannot cost more.
        </span>
        <span>
          Per {variantWord}:{' '}
          {estimate.per_variant
            .map((v, i) => {
              // A cascade's expected cost is said with the share it sends on, below.
              const expected =
                v.cost_usd !== null ? formatUsd(v.cost_usd) : cascade[i] ? 'unknown before the run (below)' : `unknown (${v.cost_note ?? 'not known'})`;
              return `${v.variant} expected ${expected}, worst ${usdOrUnknown(v.worst_usd)}`;
            })
            .join(' · ')}
        </span>
        <span>
          Worst case of one request{estimate.worst_request_item === null ? '' : ` (item ${estimate.worst_request_item}, the largest in the dataset)`}, what a
          budget holds for it before sending it:{' '}
          {estimate.per_variant
            .map((v) => `${v.variant} ${v.worst_request_usd === null ? `unknown (${v.worst_request_note ?? 'not known'})` : formatUsd(v.worst_request_usd)}`)
            .join(' · ')}{' '}
          · smallest budget that lets every {variantWord} send a request: {usdOrUnknown(estimate.min_budget_usd)}
        </span>
      </div>
      {cascadeRows.length > 0 ? (
        <p className="notice" role="note" aria-label="Cascade estimate">
          {cascadeRows.every((v) => v.cost_usd === null)
            ? `The expected cost of ${cascadeRows.length === 1 ? 'a cascade' : 'the cascades'} is unknown before the run: how many items the condition sends on to the second model is known only once the first has answered this dataset's items (a run of the first model alone says). `
            : `${cascadeRows.map((v) => `${v.variant}: ${v.cost_usd === null ? `unknown (${v.cost_note ?? 'not known'})` : `expected ${formatUsd(v.cost_usd)}; ${v.cost_note ?? ''}`}`).join(' · ')}. `}
          {`Its worst case counts both stages for every item: `}
          {cascadeRows.map((v) => `${v.variant} at most ${usdOrUnknown(v.worst_usd)}`).join(' · ')}.
        </p>
      ) : null}
    </>
  );
}

/** The request rate the expectation assumed, as the core read it, for each variant that says one. */
function rateNote(estimate: EvalEstimate): string {
  const rates = [...new Set(estimate.per_variant.map((v) => v.cost_rate).filter((r) => r !== 'not walked'))];
  return rates.length === 1 ? `routing walked at ${rates[0]}` : `routing walked at each model's own rate: ${rates.join('; ')}`;
}

/** What a budget does to the run, once there is an estimate: below one request's worst case it sends nothing; below the expected cost it stops early. */
export function BudgetNotes({ estimate, budget }: { estimate: EvalEstimate; budget: number }) {
  const shortfall = budgetShortfall(estimate, budget);
  return (
    <>
      {shortfall ? (
        <p className="notice notice-warn" role="alert" aria-label="Budget below one request's worst case">
          {`The budget (${formatUsd(budget)}) is below what one request of ${shortfall.variant} can cost at worst (${formatUsd(shortfall.worst_request_usd!)}), which the budget holds before sending it: `}
          {`the run would stop at that request without sending it, and send nothing if it comes first. Enter at least ${formatUsd(estimate.min_budget_usd!)}, or no budget.`}
        </p>
      ) : null}
      <p className="notice notice-warn" role="note" aria-label="Budget and estimate">
        {estimate.cost_usd !== null && budget < estimate.cost_usd
          ? `The budget (${formatUsd(budget)}) is below this estimate: the run will stop before it ends. `
          : ''}
        {estimate.min_budget_usd === null ? 'The smallest budget that lets every request be sent is unknown (see the worst cases above). ' : ''}
        Each request in flight holds its worst case against the budget (every endpoint of its route tried, the longest replies), so a run stops before its
        budget is spent, and a budget smaller than one request&apos;s worst case sends nothing.
      </p>
    </>
  );
}
