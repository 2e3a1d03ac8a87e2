import type { PgDatabase } from './database';

/** A port's change token on Postgres: moves on each change notice of its channel, and on this process's own writes. */
export class PgChangeToken {
  private token = 0;

  private constructor() {}

  static async on(db: PgDatabase, channel: string): Promise<PgChangeToken> {
    const token = new PgChangeToken();
    await db.onNotice(channel, () => token.moved());
    return token;
  }

  moved(): void {
    this.token += 1;
  }

  read(): number {
    return this.token;
  }
}
