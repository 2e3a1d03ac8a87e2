import { randomUUID } from 'node:crypto';
import type { DecisionsRequest } from '../../../shared/schemas/decisions-request';
import type { Run, RunRouting } from '../../../shared/schemas/inspector';
import { routingOf, routingOfFailure } from './run-routing';
import type { StagePlan } from '../decisions/stages';
import type { Clock } from '../clock';
import { GatewayError } from '../errors';
import type { RunStore } from './run-store';
import type { GatewayService } from '../service';
import type { RunFilter, RunStorage, StoredRun } from '../store/ports';

/** 499: the person running it stopped it (no answer was sent). */
const CANCELLED = 499;

function fromStored(row: StoredRun): Run {
  const response = (row.response ?? null) as Record<string, unknown> | null;
  const error = response && 'error' in response ? (response['error'] as { code: number; message: string }) : null;
  const answers = response && !error ? Object.keys((response['answers'] as Record<string, unknown>) ?? {}) : [];
  return {
    id: row.id,
    set_id: row.set_id,
    label: row.label,
    status: row.status === 200 ? 'done' : row.status === CANCELLED ? 'cancelled' : 'failed',
    model: row.model,
    started_at: new Date(row.created_at).toISOString(),
    latency_ms: row.latency_ms,
    answered: answers,
    question_count: row.question_count,
    request: (row.request ?? null) as Run['request'],
    response: error ? null : response,
    methods: row.methods,
    error,
    routing: (row.routing ?? null) as RunRouting | null,
  };
}

/** Runs from the inspector: started in the background, followed by polling, cancellable, kept in the request log. */
export class Runs {
  private readonly active = new Map<string, { run: Run; controller: AbortController }>();

  constructor(private readonly deps: { storage: RunStorage; clock: Clock; log: RunStore; service: () => GatewayService }) {}

  /**
   * With `stages` the request is asked as a cascade (its model first); the inspector's runs hold no
   * key's credit, and the cost recorded is every stage's, summed. The response carries the cascade's
   * record (`cascade`: who answered, and why it was escalated), as the API's does.
   */
  start(request: DecisionsRequest, setId: string | null, label: string | null, stages: StagePlan | null = null): Run {
    const id = `run-${randomUUID()}`;
    const started = this.deps.clock.now();
    const controller = new AbortController();
    const run: Run = {
      id,
      set_id: setId,
      label,
      status: 'running',
      model: request.model,
      started_at: new Date(started).toISOString(),
      latency_ms: null,
      answered: [],
      question_count: Object.keys(request.questions).length,
      request,
      response: null,
      methods: null,
      error: null,
      routing: null,
    };
    this.active.set(id, { run, controller });
    const base = {
      id,
      createdAt: started,
      origin: 'inspector' as const,
      keyId: null,
      sessionId: request.session_id ?? null,
      user: request.user ?? null,
      request,
      setId,
      label,
    };
    const options = {
      requestId: id,
      signal: controller.signal,
      onAnswer: (name: string) => {
        // A cascade's second stage answers the same questions again.
        if (!run.answered.includes(name)) run.answered.push(name);
      },
    };
    const decided = this.deps
      .service()
      .decide(request, { ...options, ...(stages ? { stages } : {}) })
      .then((answered) => (answered.cascade ? { ...answered, response: { ...answered.response, cascade: answered.cascade } } : answered));
    void decided
      .then((outcome) => {
        run.status = 'done';
        run.response = outcome.response;
        run.methods = outcome.methods;
        run.answered = Object.keys(outcome.response.answers);
        run.latency_ms = this.deps.clock.now() - started;
        run.routing = outcome.route ? routingOf(request, outcome.route) : null;
        return this.deps.log.record({ ...base, latencyMs: run.latency_ms, routing: run.routing, outcome: { ok: true, ...outcome } });
      })
      .catch((error: unknown) => {
        run.latency_ms = this.deps.clock.now() - started;
        const cancelled = controller.signal.aborted;
        run.status = cancelled ? 'cancelled' : 'failed';
        run.error = cancelled
          ? { code: CANCELLED, message: 'Cancelled' }
          : error instanceof GatewayError
            ? { code: error.status, message: error.message }
            : { code: 500, message: 'Unexpected error; see the log' };
        run.routing = cancelled ? null : routingOfFailure(request, error);
        return this.deps.log.record({ ...base, latencyMs: run.latency_ms, routing: run.routing, outcome: { ok: false, error: run.error } });
      })
      .finally(() => {
        // Kept a little while so a poll right after it ends still finds the run here.
        setTimeout(() => this.active.delete(id), 5_000).unref();
      });
    return run;
  }

  async get(id: string): Promise<Run> {
    const live = this.active.get(id);
    if (live) return live.run;
    const row = await this.deps.storage.get(id);
    if (!row) throw new GatewayError('not_found', `No run with id "${id}"`);
    return fromStored(row);
  }

  /** Removes a finished run for good. */
  async remove(id: string): Promise<{ id: string }> {
    if ((await this.get(id)).status === 'running') throw new GatewayError('bad_request', 'The run is still running; cancel it first');
    await this.deps.storage.remove(id);
    return { id };
  }

  async cancel(id: string): Promise<Run> {
    const live = this.active.get(id);
    if (!live) return this.get(id);
    live.controller.abort();
    return live.run;
  }

  async list(filters: RunFilter): Promise<Run[]> {
    const running = [...this.active.values()].map((a) => a.run).filter((r) => r.status === 'running');
    const rows = await this.deps.storage.list(filters);
    const matches = (r: Run) =>
      (!filters.set_id || r.set_id === filters.set_id) && (!filters.model || r.model === filters.model) && (!filters.status || r.status === filters.status);
    const stored = rows.map(fromStored).filter((r) => !running.some((a) => a.id === r.id));
    return [...running.filter(matches), ...stored].slice(0, filters.limit);
  }
}
