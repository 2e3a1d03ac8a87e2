import type { Store } from './database';

/**
 * A port's change token on the SQLite file: moves when another connection (another process)
 * commits, which the file's data_version tells cheaply, and when this connection writes what the
 * port watches (`moved`). Another process's commit to any table moves it: reading again is harmless.
 */
export class SqliteChangeToken {
  private seenVersion = -1;
  private token = 0;
  private lookedThisTurn = false;

  /**
   * `oncePerTurn`: the file is looked at once a turn of the event loop, for ports read in bursts
   * (routing asks what each endpoint of a plan refused, thousands in one go); a request arrives in a
   * turn of its own, so it still sees what was committed before it.
   */
  constructor(
    private readonly store: Store,
    private readonly options: { oncePerTurn?: boolean } = {},
  ) {}

  /** This connection changed what is watched. */
  moved(): void {
    this.token += 1;
  }

  read(): number {
    if (this.options.oncePerTurn) {
      if (this.lookedThisTurn) return this.token;
      this.lookedThisTurn = true;
      setImmediate(() => (this.lookedThisTurn = false));
    }
    const version = this.store.dataVersion();
    if (version !== this.seenVersion) {
      this.seenVersion = version;
      this.token += 1;
    }
    return this.token;
  }
}
