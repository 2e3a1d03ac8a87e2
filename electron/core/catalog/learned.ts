import { isoTime, type Clock } from '../clock';
import type { Store } from '../store/sqlite/database';

export interface Refusal {
  parameter: string;
  message: string;
  learned_at: string;
}

/**
 * What endpoints refused at run time: an error (a 400 or 422, or OpenAI's 403 for log-probabilities
 * on its reasoning models) that said a parameter or feature is not supported. Kept in the store so a restart does not ask again, shown in Endpoints, and taken
 * out of every later request to that endpoint.
 */
export class LearnedCapabilities {
  private readonly byEndpoint = new Map<string, Map<string, Refusal>>();
  private static readonly NONE: ReadonlySet<string> = new Set();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {
    for (const row of store.all<Refusal & { endpoint_id: string }>('SELECT endpoint_id, parameter, message, learned_at FROM endpoint_refusals')) {
      this.remember(row.endpoint_id, { parameter: row.parameter, message: row.message, learned_at: row.learned_at });
    }
  }

  refused(endpointId: string): ReadonlySet<string> {
    const found = this.byEndpoint.get(endpointId);
    return found ? new Set(found.keys()) : LearnedCapabilities.NONE;
  }

  list(endpointId: string): Refusal[] {
    return [...(this.byEndpoint.get(endpointId)?.values() ?? [])];
  }

  learn(endpointId: string, parameter: string, message: string): void {
    if (this.byEndpoint.get(endpointId)?.has(parameter)) return;
    const refusal = { parameter, message: message.slice(0, 500), learned_at: isoTime(this.clock) };
    this.remember(endpointId, refusal);
    this.store.run('INSERT OR REPLACE INTO endpoint_refusals (endpoint_id, parameter, message, learned_at) VALUES (?, ?, ?, ?)', [endpointId, parameter, refusal.message, refusal.learned_at]);
  }

  /** Forgets what an endpoint refused (the user says it was fixed). */
  forget(endpointId: string): void {
    this.byEndpoint.delete(endpointId);
    this.store.run('DELETE FROM endpoint_refusals WHERE endpoint_id = ?', [endpointId]);
  }

  private remember(endpointId: string, refusal: Refusal): void {
    let map = this.byEndpoint.get(endpointId);
    if (!map) this.byEndpoint.set(endpointId, (map = new Map()));
    map.set(refusal.parameter, refusal);
  }
}
