import type { DecisionsRequest } from '../../../../shared/schemas/decisions-request';
import type { EvalVariant } from '../../../../shared/schemas/evaluation';

/** What one item sends for one variant: the set's questions on the item's state, the variant's model, its provider preferences or else the set's. */
export function variantRequest(request: DecisionsRequest, variant: EvalVariant, state: unknown): DecisionsRequest {
  const { provider: basePreferences, ...base } = request;
  const provider = variant.provider ?? basePreferences;
  return { ...base, model: variant.model, state, ...(provider ? { provider } : {}) } as DecisionsRequest;
}
