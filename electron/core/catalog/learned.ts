import { isoTime, type Clock } from '../clock';
import type { RefusalStorage } from '../store/ports';

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

  private token = -1;
  private reading: Promise<void> | null = null;

  private constructor(
    private readonly storage: RefusalStorage,
    private readonly clock: Clock,
  ) {}

  static async open(storage: RefusalStorage, clock: Clock): Promise<LearnedCapabilities> {
    const learned = new LearnedCapabilities(storage, clock);
    await learned.read();
    return learned;
  }

  /** Reads every refusal again: another process learned or forgot some (in the background; the next request sees it). */
  private async read(): Promise<void> {
    const token = this.storage.changeToken();
    const all = await this.storage.all();
    this.byEndpoint.clear();
    for (const r of all) this.remember(r.endpointId, { parameter: r.parameter, message: r.message, learned_at: r.learned_at });
    this.token = token;
  }

  private fresh(): void {
    if (this.storage.changeToken() !== this.token)
      // The database away: what was read last stays, and is read again once it answers (the token has not moved).
      this.reading ??= this.read()
        .catch(() => undefined)
        .finally(() => (this.reading = null));
  }

  refused(endpointId: string): ReadonlySet<string> {
    this.fresh();
    const found = this.byEndpoint.get(endpointId);
    return found ? new Set(found.keys()) : LearnedCapabilities.NONE;
  }

  list(endpointId: string): Refusal[] {
    this.fresh();
    return [...(this.byEndpoint.get(endpointId)?.values() ?? [])];
  }

  /** Remembers at once; resolves once it is stored. */
  async learn(endpointId: string, parameter: string, message: string): Promise<void> {
    if (this.byEndpoint.get(endpointId)?.has(parameter)) return;
    const refusal = { parameter, message: message.slice(0, 500), learned_at: isoTime(this.clock) };
    this.remember(endpointId, refusal);
    await this.storage.put({ endpointId, ...refusal });
  }

  /** Forgets what an endpoint refused (the user says it was fixed). */
  async forget(endpointId: string): Promise<void> {
    this.byEndpoint.delete(endpointId);
    await this.storage.forget(endpointId);
  }

  private remember(endpointId: string, refusal: Refusal): void {
    let map = this.byEndpoint.get(endpointId);
    if (!map) this.byEndpoint.set(endpointId, (map = new Map()));
    map.set(refusal.parameter, refusal);
  }
}
