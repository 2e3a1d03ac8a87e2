/**
 * What a run will cost before it starts. Two figures, each named as what it is:
 * - the expected cost: each sampled item's requests as the engine would build them, counted as each
 *   endpoint counts tokens, at the prices of the endpoints routing would pick, weighted as routing
 *   weighs them (expected-cost.ts), averaged over the sample and multiplied out over the dataset;
 * - the worst case: what a budget holds per request (every endpoint of its route tried, the longest
 *   replies), the highest over the dataset's largest items, times the requests of the run: no run
 *   can cost more. Per model, the worst case of one request too, and the smallest budget that lets
 *   every model send one. Null where a price is unknown.
 *
 * evaluations/estimate/ owns this, what one request is expected to cost (expected-cost.ts) and the
 * expected cost refined as a run answers (refine.ts). May import shared/, the catalog, routing and
 * decisions (to build and price a request as the engine would), datasets, and what an item sends
 * for a model (sending/variant-request.ts).
 */
import type { DecisionsRequest } from '../../../../shared/schemas/decisions-request';
import type { EvalEstimate, EvalVariant } from '../../../../shared/schemas/evaluation';
import type { Question } from '../../../../shared/schemas/question';
import type { Catalog } from '../../catalog/catalog';
import type { DecisionsEngine } from '../../decisions/engine';
import type { Router } from '../../routing/router';
import type { Upstreams } from '../../decisions/upstreams';
import type { Datasets } from '../../datasets/datasets';
import { variantKeys } from '../../../../shared/evaluations/variant-keys';
import { variantRequest } from '../sending/variant-request';
import { expectedRequestCost } from './expected-cost';
import { fitTokens } from './refine';

/** Items whose requests are priced, evenly placed over the dataset; the rest are taken as alike. */
export const SAMPLE = 60;

export interface EstimateDeps {
  datasets: Datasets;
  catalog: Catalog;
  router: Router;
  upstreams: Upstreams;
  decisions: Pick<DecisionsEngine, 'admissionCost'>;
  /** Where requests are answered: a remote gateway reserves nothing here before a request. */
  service(): { mode: 'built-in' | 'remote' };
}

/** Positions of up to SAMPLE items evenly placed over `items`. */
export function samplePositions(items: number): number[] {
  if (items <= SAMPLE) return Array.from({ length: items }, (_, i) => i);
  return Array.from({ length: SAMPLE }, (_, i) => Math.floor(((i + 0.5) * items) / SAMPLE));
}

export async function estimateRun(
  deps: EstimateDeps,
  input: { request: DecisionsRequest; dataset_id: string; variants: EvalVariant[] },
): Promise<EvalEstimate> {
  const items = await deps.datasets.itemCount(input.dataset_id);
  await deps.datasets.assertFits(input.dataset_id, input.request.questions as Record<string, Question>);
  const sample = await Promise.all(samplePositions(items).map((p) => deps.datasets.item(input.dataset_id, p)));
  // Where one request can cost the most: the longest states of the whole dataset.
  const candidates = (await deps.datasets.largest(input.dataset_id)).map((item) => ({ id: item.id, state: item.state }));
  const keys = variantKeys(input.variants);
  const worstItems: { usd: number | null; item: string | null }[] = [];
  const perVariant = [];
  for (const [i, v] of input.variants.entries()) {
    let usd: number | null = 0;
    let inputTokens = 0;
    let outputTokens = 0;
    let expectedNote: string | null = null;
    const points: { chars: number; tokens: number }[] = [];
    for (const item of sample) {
      try {
        const e = await expectedRequestCost(deps, variantRequest(input.request, v, item.state));
        inputTokens += e.input;
        outputTokens += e.output;
        points.push({ chars: JSON.stringify(item.state).length, tokens: e.input + e.output });
        usd = usd === null || e.usd === null ? null : usd + e.usd;
      } catch (error) {
        usd = null;
        expectedNote = `its requests would fail: ${(error as Error).message}`;
        break;
      }
    }
    // A cascade's second stage is asked for the items its condition picks: how many is not known before the run.
    if (v.cascade && usd !== null) {
      usd = null;
      expectedNote = `how many items go on to ${v.cascade.model} is not known before the run (the Cascade panel of two runs' report says, per threshold)`;
    }
    const scale = sample.length ? items / sample.length : 0;
    const { worst_request_usd, worst_request_note, worst_request_item } = worstRequest(deps, input.request, v, candidates);
    worstItems.push({ usd: worst_request_usd, item: worst_request_item });
    perVariant.push({
      variant: keys[i]!,
      input_tokens: Math.round(inputTokens * scale),
      output_tokens: Math.round(outputTokens * scale),
      cost_usd: usd === null ? null : usd * scale,
      cost_note: usd === null ? (expectedNote ?? 'a price on its route is unknown') : null,
      worst_usd: worst_request_usd === null ? null : worst_request_usd * items,
      worst_request_usd,
      worst_request_note,
      tokens_fit: fitTokens(points),
    });
  }
  const worst = perVariant.map((v) => v.worst_request_usd);
  const sum = (values: (number | null)[]) => (values.some((x) => x === null) ? null : values.reduce<number>((s, x) => s + x!, 0));
  return {
    calls: items * input.variants.length,
    items,
    estimated: true,
    sampled: sample.length,
    per_variant: perVariant,
    input_tokens: perVariant.reduce((s, v) => s + v.input_tokens, 0),
    output_tokens: perVariant.reduce((s, v) => s + v.output_tokens, 0),
    cost_usd: sum(perVariant.map((v) => v.cost_usd)),
    worst_usd: sum(perVariant.map((v) => v.worst_usd)),
    // The item of the highest worst case over the variants (the one the smallest budget is for).
    worst_request_item:
      worstItems.reduce<{ usd: number | null; item: string | null } | null>((top, w) => (w.usd !== null && (top === null || w.usd > top.usd!) ? w : top), null)
        ?.item ??
      candidates[0]?.id ??
      null,
    // Below the largest worst case, a request of that model is never admitted: the run stops at it.
    min_budget_usd: worst.length === 0 || worst.some((w) => w === null) ? null : roundedUp(Math.max(...(worst as number[]))),
  };
}

/** Three significant digits, rounded up: a budget typed as shown is enough. */
function roundedUp(usd: number): number {
  if (usd <= 0) return 0;
  const step = 10 ** (Math.floor(Math.log10(usd)) - 2);
  return Number((Math.ceil(usd / step) * step).toPrecision(3));
}

/**
 * One request's worst case for a variant, as the engine reserves it at admission: the highest over
 * the candidate items, with the item it is for; null with the reason when it is not known.
 */
function worstRequest(
  deps: EstimateDeps,
  request: DecisionsRequest,
  variant: EvalVariant,
  candidates: { id: string; state: unknown }[],
): { worst_request_usd: number | null; worst_request_note: string | null; worst_request_item: string | null } {
  if (candidates.length === 0) return { worst_request_usd: null, worst_request_note: 'the dataset has no items', worst_request_item: null };
  if (deps.service().mode === 'remote')
    return {
      worst_request_usd: null,
      worst_request_note: 'a remote gateway answers: nothing is held against the budget before a request',
      worst_request_item: null,
    };
  let worst: { usd: number; item: string } | null = null;
  for (const candidate of candidates) {
    let usd: number | null;
    try {
      const asked = variantRequest(request, variant, candidate.state);
      usd = deps.decisions.admissionCost(asked);
      // A cascade holds both stages' worst cases, as the API does.
      if (usd !== null && variant.cascade) {
        const second = deps.decisions.admissionCost({ ...asked, model: variant.cascade.model });
        usd = second === null ? null : usd + second;
      }
    } catch (error) {
      return { worst_request_usd: null, worst_request_note: `its requests would fail: ${(error as Error).message}`, worst_request_item: candidate.id };
    }
    if (usd === null) return { worst_request_usd: null, worst_request_note: 'a price on its route is unknown', worst_request_item: candidate.id };
    if (worst === null || usd > worst.usd) worst = { usd, item: candidate.id };
  }
  return { worst_request_usd: worst!.usd, worst_request_note: null, worst_request_item: worst!.item };
}
