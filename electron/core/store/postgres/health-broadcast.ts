import type { HealthBroadcast, HealthEvent } from '../ports';
import type { PgDatabase } from './database';

const CHANNEL = 'verdict_health';

/** A notice from another instance, checked: anything else on the channel is ignored. */
function eventOf(payload: string | undefined): HealthEvent | null {
  if (!payload) return null;
  try {
    const e = JSON.parse(payload) as Partial<HealthEvent>;
    if (typeof e.endpointId !== 'string' || (e.kind !== 'cooldown' && e.kind !== 'open') || typeof e.until !== 'number' || !Number.isFinite(e.until))
      return null;
    return { endpointId: e.endpointId, kind: e.kind, until: e.until };
  } catch {
    return null;
  }
}

/** Endpoint cool-downs told between a team's instances with Postgres NOTIFY: each hears them on its listening connection. */
export class PgHealthBroadcast implements HealthBroadcast {
  constructor(private readonly db: PgDatabase) {}

  publish(event: HealthEvent): void {
    void this.db.query('SELECT pg_notify($1, $2)', [CHANNEL, JSON.stringify(event)]).catch(() => undefined);
  }

  async subscribe(listener: (event: HealthEvent) => void): Promise<void> {
    await this.db.onNotice(CHANNEL, (payload) => {
      const event = eventOf(payload);
      if (event) listener(event);
    });
  }
}
