import { inject } from 'vitest';
import { createDatabaseOn, onServer } from './postgres';

/** This file's part of the unit run's PostgreSQL server (postgres-global.ts): its own databases. */
export interface SharedPostgres {
  readonly from: string;
  /** A fresh, empty database; its URL. The name is made unique across the run's files. */
  createDatabase(name: string): Promise<string>;
  /** Drops the databases this file made (closing what is still connected to them). */
  stop(): Promise<void>;
}

let made = 0;

export function sharedPostgres(): SharedPostgres {
  const shared = inject('sharedPostgres');
  if ('error' in shared) throw new Error(shared.error);
  const mine: string[] = [];
  return {
    from: shared.from,
    async createDatabase(name) {
      const unique = `${name}_${process.pid}_${(made += 1)}`;
      const url = await createDatabaseOn(shared.url, unique);
      mine.push(unique);
      return url;
    },
    async stop() {
      await onServer(shared.url, async (client) => {
        for (const name of mine.splice(0)) await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      });
    },
  };
}
