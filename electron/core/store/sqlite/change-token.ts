import type { Store } from './database';

/**
 * A port's change token on the SQLite file: moves when another connection (another process)
 * commits, which the file's data_version tells cheaply, and when this connection writes what the
 * port watches (`moved`). Another process's commit to any table moves it: reading again is harmless.
 */
export class SqliteChangeToken {
  private seenVersion = -1;
  private token = 0;

  /** The file is looked at through Store.dataVersion: one look shared by every port on the file within a turn and a millisecond. */
  constructor(private readonly store: Store) {}

  /** This connection changed what is watched. */
  moved(): void {
    this.token += 1;
  }

  read(): number {
    const version = this.store.dataVersion();
    if (version !== this.seenVersion) {
      this.seenVersion = version;
      this.token += 1;
    }
    return this.token;
  }
}
