/**
 * What a run will cost before it starts: calls, tokens counted on a sample of the items, prices
 * of each model's first endpoint. Always an estimate; the cost is null when a price is unknown.
 */
import type { DecisionsRequest } from '../../../shared/schemas/decisions-request';
import type { EvalEstimate, EvalVariant } from '../../../shared/schemas/evaluation';
import type { Question } from '../../../shared/schemas/question';
import type { Catalog } from '../catalog/catalog';
import { countTokens } from '../decisions/tokens';
import { guidanceText } from '../validation';
import type { Datasets } from './datasets';
import { variantKeys } from './eval-runs';

/** Items whose tokens are counted; the rest are assumed alike. */
const SAMPLE = 200;
/** Prompt framing around the state and the question, per call. */
const FRAME_TOKENS = 60;
const IMAGE_TOKENS = 2_000;
const OUTPUT_TOKENS: Record<Question['type'], number> = { noul: 1, choice: 2, score: 1, box: 60 };

export async function estimateRun(deps: { datasets: Datasets; catalog: Catalog }, input: { request: DecisionsRequest; dataset_id: string; variants: EvalVariant[] }): Promise<EvalEstimate> {
  const dataset = deps.datasets.get(input.dataset_id);
  const questions = Object.values(input.request.questions as Record<string, Question>);
  const questionTokens = await Promise.all(questions.map((q) => countTokens(guidanceText(q.instructions) + JSON.stringify('criteria' in q ? q.criteria : ''))));
  let sampled = 0;
  let stateTokens = 0;
  for (const item of deps.datasets.iterate(input.dataset_id, SAMPLE)) {
    if (sampled >= SAMPLE) break;
    sampled += 1;
    const text = typeof item.state === 'string' ? item.state : JSON.stringify(item.state);
    const images = (text.match(/data:image\//g) ?? []).length;
    stateTokens += images > 0 ? images * IMAGE_TOKENS + (await countTokens(text.replace(/data:image\/[^"]+/g, ''))) : await countTokens(text);
  }
  const perItemState = sampled ? stateTokens / sampled : 0;
  const perItemInput = Math.round(questions.reduce((s, _, i) => s + perItemState + questionTokens[i]! + FRAME_TOKENS, 0));
  const perItemOutput = questions.reduce((s, q) => s + OUTPUT_TOKENS[q.type], 0);
  const keys = variantKeys(input.variants);
  const perVariant = input.variants.map((v, i) => {
    const input_tokens = perItemInput * dataset.items;
    const output_tokens = perItemOutput * dataset.items;
    const endpoint = deps.catalog.endpointsOf(v.model)[0];
    const p = endpoint?.prices;
    const cost_usd = p && p.prompt !== null && p.completion !== null ? input_tokens * p.prompt + output_tokens * p.completion + (p.request ?? 0) * dataset.items * questions.length : null;
    return { variant: keys[i]!, input_tokens, output_tokens, cost_usd };
  });
  return {
    calls: dataset.items * input.variants.length,
    items: dataset.items,
    estimated: true,
    per_variant: perVariant,
    input_tokens: perVariant.reduce((s, v) => s + v.input_tokens, 0),
    output_tokens: perVariant.reduce((s, v) => s + v.output_tokens, 0),
    cost_usd: perVariant.some((v) => v.cost_usd === null) ? null : perVariant.reduce((s, v) => s + v.cost_usd!, 0),
  };
}
