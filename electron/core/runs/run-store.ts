import type { DecisionsRequest } from '../../../shared/schemas/decisions-request';
import type { DecisionsResponse } from '../../../shared/schemas/decisions-response';
import type { ErrorBody } from '../../../shared/schemas/error-envelope';
import type { RunStorage } from '../store/ports';
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
  outcome:
    { ok: true; response: DecisionsResponse; methods: Record<string, AnsweringMethod | 'remote'>; endpointId: string | null } | { ok: false; error: ErrorBody };
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
  constructor(private readonly storage: RunStorage) {}

  /** Records of API requests written here by earlier versions (their cost is in their key's spend): those before `cutoff` go. */
  forgetApiRecordsBefore(cutoff: number): Promise<number> {
    return this.storage.forgetApiRecordsBefore(cutoff);
  }

  /** Per model, answered requests with known tokens: how many, and their tokens summed. */
  answeredTokens(): Promise<{ model: string; requests: number; input: number; output: number; cost: number; priced: number }[]> {
    return this.storage.answeredTokens();
  }

  /** Resolves once the record is stored. */
  record(r: DecisionRecord): Promise<void> {
    const ok = r.outcome.ok ? r.outcome : null;
    // Callers of the API may require zero data retention: their prompts are never written down.
    const keepContent = r.origin === 'inspector';
    return this.storage.add({
      id: r.id,
      created_at: r.createdAt,
      origin: r.origin,
      key_id: r.keyId,
      session_id: r.sessionId,
      user: r.user,
      model: r.request.model,
      provider: ok?.response.provider ?? null,
      endpoint_id: ok?.endpointId ?? null,
      status: r.outcome.ok ? 200 : r.outcome.error.code,
      latency_ms: r.latencyMs,
      input_tokens: ok?.response.usage.input_tokens ?? null,
      output_tokens: ok?.response.usage.output_tokens ?? null,
      cost: ok?.response.usage.cost ?? null,
      methods: ok ? ok.methods : null,
      question_count: Object.keys(r.request.questions).length,
      request: keepContent ? r.request : null,
      response: keepContent ? (r.outcome.ok ? r.outcome.response : { error: r.outcome.error }) : null,
      set_id: r.setId ?? null,
      label: r.label ?? null,
      routing: r.routing ?? null,
    });
  }
}
