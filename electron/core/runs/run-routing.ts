import type { DecisionsRequest } from '../../../shared/schemas/decisions-request';
import type { RunRouting } from '../../../shared/schemas/inspector';
import { endpointSlug } from '../catalog/catalog';
import type { DecisionOutcome } from '../decisions/engine';
import { GatewayError } from '../errors';

/** How an answered run was routed: each attempt with the reason the plan gave its endpoint, and what the plan left out. */
export function routingOf(request: DecisionsRequest, outcome: Pick<DecisionOutcome, 'attempts' | 'plan'>): RunRouting {
  const reasons = new Map(outcome.plan.attempts.map((a) => [a.endpoint.id, a.reason]));
  return {
    preferences: request.provider ?? {},
    strategy: outcome.plan.strategy,
    attempts: [...outcome.attempts]
      .sort((a, b) => a.startedAt - b.startedAt)
      .map((a) => ({
        provider_name: a.endpoint.provider.name,
        tag: endpointSlug(a.endpoint),
        outcome: a.outcome,
        message: a.message,
        ms: Math.round(a.totalMs),
        reason: reasons.get(a.endpoint.id) ?? null,
      })),
    excluded: outcome.plan.excluded.map((e) => ({ provider_name: e.endpoint.provider.name, tag: endpointSlug(e.endpoint), reason: e.reason })),
  };
}

/** What a failed run can say about its routing: the attempts its error lists, and the preferences used. */
export function routingOfFailure(request: DecisionsRequest, error: unknown): RunRouting {
  const metadata = error instanceof GatewayError ? (error.metadata as { attempts?: unknown; excluded?: unknown } | undefined) : undefined;
  const attempts = Array.isArray(metadata?.attempts) ? (metadata.attempts as { provider?: unknown; outcome?: unknown; message?: unknown }[]) : [];
  const excluded = Array.isArray(metadata?.excluded) ? (metadata.excluded as { endpoint?: unknown; reason?: unknown }[]) : [];
  return {
    preferences: request.provider ?? {},
    strategy: null,
    attempts: attempts.map((a) => ({
      provider_name: String(a.provider ?? 'unknown'),
      tag: String(a.provider ?? ''),
      outcome: String(a.outcome ?? 'failed'),
      message: typeof a.message === 'string' ? a.message : null,
      ms: null,
      reason: null,
    })),
    excluded: excluded.map((e) => ({ provider_name: String(e.endpoint ?? 'unknown'), tag: String(e.endpoint ?? ''), reason: String(e.reason ?? '') })),
  };
}
