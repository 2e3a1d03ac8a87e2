import type { DecisionsRequest } from '../../../shared/schemas/decisions-request';
import type { DecisionsResponse } from '../../../shared/schemas/decisions-response';
import type { ErrorBody } from '../../../shared/schemas/error-envelope';
import type { Store } from '../store/sqlite/database';
import type { RunRouting } from '../../../shared/schemas/inspector';
import type { AnsweringMethod } from '../decisions/ask';

export interface DecisionRecord {
  id: string;
  createdAt: number;
  /** 'api' for the public HTTP API, 'inspector' for runs from the UI. */
  origin: 'api' | 'inspector';
  keyId: string | null;
  sessionId: string | null;
  user: string | null;
  request: DecisionsRequest;
  outcome: { ok: true; response: DecisionsResponse; methods: Record<string, AnsweringMethod | 'remote'>; endpointId: string | null } | { ok: false; error: ErrorBody };
  latencyMs: number;
  setId?: string | null;
  label?: string | null;
  routing?: RunRouting | null;
}

/**
 * The inspector's run records: runs started from the inspector, answered or not, with the method behind each answer and their
 * content (the user saved them); written before `record` returns. Public API calls go to the
 * request log instead (request-log.ts), without content.
 */
export class RunStore {
  constructor(private readonly store: Store) {}

  /** Records of API requests written here by earlier versions (their cost is in their key's spend): those before `cutoff` go. */
  forgetApiRecordsBefore(cutoff: number): number {
    return this.store.run("DELETE FROM decisions WHERE origin = 'api' AND created_at < ?", [cutoff]).changes;
  }

  record(r: DecisionRecord): void {
    const ok = r.outcome.ok ? r.outcome : null;
    // Callers of the API may require zero data retention: their prompts are never written down.
    const keepContent = r.origin === 'inspector';
    this.store.run(
      `INSERT INTO decisions (id, created_at, origin, key_id, session_id, user, model, provider, endpoint_id, status, latency_ms, input_tokens, output_tokens, cost, methods, question_count, request, response, set_id, label, routing)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        r.id,
        r.createdAt,
        r.origin,
        r.keyId,
        r.sessionId,
        r.user,
        r.request.model,
        ok?.response.provider ?? null,
        ok?.endpointId ?? null,
        r.outcome.ok ? 200 : r.outcome.error.code,
        r.latencyMs,
        ok?.response.usage.input_tokens ?? null,
        ok?.response.usage.output_tokens ?? null,
        ok?.response.usage.cost ?? null,
        ok ? JSON.stringify(ok.methods) : null,
        Object.keys(r.request.questions).length,
        keepContent ? JSON.stringify(r.request) : null,
        keepContent ? JSON.stringify(r.outcome.ok ? r.outcome.response : { error: r.outcome.error }) : null,
        r.setId ?? null,
        r.label ?? null,
        r.routing ? JSON.stringify(r.routing) : null,
      ],
    );
  }
}
