import type { DecisionsRequest } from '../../../shared/schemas/decisions-request';
import type { Catalog } from '../catalog/catalog';
import type { RequestNeeds } from '../routing/plan';
import type { Prepared } from './prepare';
import { decisionShape } from './shape';
import { estimateTokensOfLength } from './state';

/**
 * What a prepared request needs of an endpoint, as routing plans it: its calls, an estimate of its
 * prompt, its images, and (only where the model has a native host to check) the shape a host's
 * limits are held against. The gateway sets every model parameter itself, and only those each
 * endpoint accepts.
 */
export function requestNeeds(catalog: Catalog, request: DecisionsRequest, prepared: Prepared): RequestNeeds {
  const promptChars = prepared.parts.reduce((n, p) => n + (p.type === 'text' ? p.text.length : 0), 0);
  return {
    parameters: [],
    calls: prepared.labelled.length,
    promptTokens: estimateTokensOfLength(promptChars) + 60,
    completionTokens: 1,
    images: prepared.images,
    // Only native hosts have limits to check: a chat model's requests skip the work.
    ...(catalog.endpointsOf(request.model).some((e) => e.host !== null) ? { decision: decisionShape(request, prepared) } : {}),
  };
}
