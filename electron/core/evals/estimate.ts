/**
 * What a run will cost before it starts: calls, tokens counted on a sample of the items, prices
 * of each model's first endpoint. Always an estimate; the cost is null when a price is unknown.
 * Beside it, what a budget must hold: the worst case of one request per model (what the engine
 * reserves at admission), the highest over the dataset's largest items (found in the whole
 * dataset, not the sample) and the largest of the sample (its images counted, not their bytes).
 */
import type { DecisionsRequest } from '../../../shared/schemas/decisions-request';
import type { EvalEstimate, EvalVariant } from '../../../shared/schemas/evaluation';
import type { Question } from '../../../shared/schemas/question';
import type { Catalog } from '../catalog/catalog';
import type { DecisionsEngine } from '../decisions/engine';
import { countTokens } from '../decisions/tokens';
import { guidanceText } from '../validation';
import type { Datasets } from './datasets';
import { variantKeys } from './eval-runs';
import { variantRequest } from './eval-runner';

/** Items whose tokens are counted; the rest are assumed alike. */
const SAMPLE = 200;
/** Prompt framing around the state and the question, per call. */
const FRAME_TOKENS = 60;
const IMAGE_TOKENS = 2_000;
const OUTPUT_TOKENS: Record<Question['type'], number> = { noul: 1, choice: 2, score: 1, box: 60 };

export interface EstimateDeps {
  datasets: Datasets;
  catalog: Catalog;
  decisions: Pick<DecisionsEngine, 'admissionCost'>;
  /** Where requests are answered: a remote gateway reserves nothing here before a request. */
  service(): { mode: 'built-in' | 'remote' };
}

export async function estimateRun(deps: EstimateDeps, input: { request: DecisionsRequest; dataset_id: string; variants: EvalVariant[] }): Promise<EvalEstimate> {
  const items = deps.datasets.itemCount(input.dataset_id);
  deps.datasets.assertFits(input.dataset_id, input.request.questions as Record<string, Question>);
  const questions = Object.values(input.request.questions as Record<string, Question>);
  const questionTokens = await Promise.all(questions.map((q) => countTokens(guidanceText(q.instructions) + JSON.stringify('criteria' in q ? q.criteria : ''))));
  let sampled = 0;
  let stateTokens = 0;
  // The sampled item the reservation is largest for: most bytes of text (a token per byte) and images.
  let largest: { id: string; state: unknown; size: number } | null = null;
  for (const item of deps.datasets.iterate(input.dataset_id, SAMPLE)) {
    if (sampled >= SAMPLE) break;
    sampled += 1;
    const text = typeof item.state === 'string' ? item.state : JSON.stringify(item.state);
    const images = (text.match(/data:image\//g) ?? []).length;
    const plain = images > 0 ? text.replace(/data:image\/[^"]+/g, '') : text;
    stateTokens += images * IMAGE_TOKENS + (await countTokens(plain));
    const size = Buffer.byteLength(plain) + images * IMAGE_TOKENS;
    if (!largest || size > largest.size) largest = { id: item.id, state: item.state, size };
  }
  // Where one request can cost the most: the longest states of the whole dataset, and the sample's largest.
  const candidates = deps.datasets.largest(input.dataset_id).map((item) => ({ id: item.id, state: item.state }));
  if (largest && !candidates.some((c) => c.id === largest!.id)) candidates.push({ id: largest.id, state: largest.state });
  const perItemState = sampled ? stateTokens / sampled : 0;
  const perItemInput = Math.round(questions.reduce((s, _, i) => s + perItemState + questionTokens[i]! + FRAME_TOKENS, 0));
  const perItemOutput = questions.reduce((s, q) => s + OUTPUT_TOKENS[q.type], 0);
  const keys = variantKeys(input.variants);
  const worstItems: { usd: number | null; item: string | null }[] = [];
  const perVariant = input.variants.map((v, i) => {
    const input_tokens = perItemInput * items;
    const output_tokens = perItemOutput * items;
    const endpoint = deps.catalog.endpointsOf(v.model)[0];
    const p = endpoint?.prices;
    const cost_usd = p && p.prompt !== null && p.completion !== null ? input_tokens * p.prompt + output_tokens * p.completion + (p.request ?? 0) * items * questions.length : null;
    const { worst_request_usd, worst_request_note, worst_request_item } = worstRequest(deps, input.request, v, candidates);
    worstItems.push({ usd: worst_request_usd, item: worst_request_item });
    return { variant: keys[i]!, input_tokens, output_tokens, cost_usd, worst_request_usd, worst_request_note };
  });
  const worst = perVariant.map((v) => v.worst_request_usd);
  return {
    calls: items * input.variants.length,
    items,
    estimated: true,
    per_variant: perVariant,
    input_tokens: perVariant.reduce((s, v) => s + v.input_tokens, 0),
    output_tokens: perVariant.reduce((s, v) => s + v.output_tokens, 0),
    cost_usd: perVariant.some((v) => v.cost_usd === null) ? null : perVariant.reduce((s, v) => s + v.cost_usd!, 0),
    // The item of the highest worst case over the variants (the one the smallest budget is for).
    worst_request_item: worstItems.reduce<{ usd: number | null; item: string | null } | null>((top, w) => (w.usd !== null && (top === null || w.usd > top.usd!) ? w : top), null)?.item ?? candidates[0]?.id ?? null,
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
  if (deps.service().mode === 'remote') return { worst_request_usd: null, worst_request_note: 'a remote gateway answers: nothing is held against the budget before a request', worst_request_item: null };
  let worst: { usd: number; item: string } | null = null;
  for (const candidate of candidates) {
    let usd: number | null;
    try {
      usd = deps.decisions.admissionCost(variantRequest(request, variant, candidate.state));
    } catch (error) {
      return { worst_request_usd: null, worst_request_note: `its requests would fail: ${(error as Error).message}`, worst_request_item: candidate.id };
    }
    if (usd === null) return { worst_request_usd: null, worst_request_note: 'a price on its route is unknown', worst_request_item: candidate.id };
    if (worst === null || usd > worst.usd) worst = { usd, item: candidate.id };
  }
  return { worst_request_usd: worst!.usd, worst_request_note: null, worst_request_item: worst!.item };
}
