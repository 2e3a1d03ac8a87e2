import type { PgDatabase } from './database';
import { CHANNELS } from './migrations';

const tokens = new WeakMap<PgDatabase, Map<string, Promise<PgChangeToken>>>();

/**
 * A port's change token on Postgres: moves on each change notice of its channel, and on this process's own writes.
 * There is one per database and channel, so a store's own write moves it at once for every store of the process that
 * reads that channel (dataset items move the evaluations' token too, before any notice comes back).
 */
export class PgChangeToken {
  private token = 0;

  private constructor() {}

  static on(db: PgDatabase, channel: string): Promise<PgChangeToken> {
    const byChannel = tokens.get(db) ?? new Map<string, Promise<PgChangeToken>>();
    tokens.set(db, byChannel);
    let token = byChannel.get(channel);
    if (!token) {
      const made = new PgChangeToken();
      token = db.onNotice(channel, () => made.moved()).then(() => made);
      byChannel.set(channel, token);
      token.catch(() => byChannel.delete(channel));
    }
    return token;
  }

  moved(): void {
    this.token += 1;
  }

  read(): number {
    return this.token;
  }
}

/**
 * The tokens a write to dataset items moves (the items' and the evaluations' results'), as one: a
 * store that adds, changes or deletes items outside the datasets' own store (captures, reviews) moves
 * them at once for this process's readers; other processes hear the notice.
 */
export async function itemTokens(db: PgDatabase): Promise<{ moved(): void }> {
  const tokens = await Promise.all([PgChangeToken.on(db, CHANNELS.items), PgChangeToken.on(db, CHANNELS.results)]);
  return { moved: () => tokens.forEach((t) => t.moved()) };
}
