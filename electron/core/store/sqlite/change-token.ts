import type { Store } from './database';

/**
 * A port's change token on the SQLite file: moves when another connection (another process)
 * commits, which the file's data_version tells cheaply, and when this connection writes what the
 * port watches (`moved`). Another process's commit to any table moves it: reading again is harmless.
 */
export class SqliteChangeToken {
  private seenVersion = -1;
  private token = 0;

  /**
   * `oncePerTurn`: the file is looked at once a turn of the event loop, a look shared by every port
   * on the file (Store.dataVersion), for ports read in bursts (routing asks what each endpoint of a
   * plan refused, thousands in one go) or where a commit seen a turn later changes nothing that
   * matters (settings); a request arrives in a turn of its own, and the port it reads first (its
   * key) looks at the file afresh, so it still sees what was committed before it.
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
    const version = this.store.dataVersion(!this.options.oncePerTurn);
    if (version !== this.seenVersion) {
      this.seenVersion = version;
      this.token += 1;
    }
    return this.token;
  }
}
