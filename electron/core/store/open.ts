import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Storage } from './ports';
import { redactUrl } from './redact';
import type { PgOptions } from './postgres/database';
import { openPostgresStorage } from './postgres/storage';
import { openSqliteStorage } from './sqlite/storage';

/** The SQLite file in a data directory. */
export const DATABASE_FILE = 'verdict.sqlite';

/** Whether `database` names a PostgreSQL server (a `postgres://` or `postgresql://` URL). */
export function isPostgresUrl(database: string | undefined): database is string {
  return database !== undefined && /^postgres(ql)?:\/\//i.test(database);
}

/**
 * Opens every domain's storage: on the PostgreSQL server a `postgres://` URL names (a team's
 * shared store), else in the SQLite file of the data directory (the default, and the desktop's).
 */
export async function openStorage(options: { dataDir: string; database?: string | undefined; connections?: PgOptions | undefined }): Promise<Storage> {
  if (options.database !== undefined && !isPostgresUrl(options.database))
    throw new Error(`The database must be a postgres:// URL (or left out, for the SQLite file in the data directory), not "${redactUrl(options.database)}"`);
  if (isPostgresUrl(options.database)) return openPostgresStorage(options.database, options.connections);
  return openSqliteStorage(join(options.dataDir, DATABASE_FILE));
}

/**
 * Opens the store a command names: a `postgres://` URL, or a data directory (which must already
 * hold Verdict's data when it is the source of a copy; a target directory is made when missing).
 * A source is opened for reading only, and never migrated.
 */
export async function openPlace(place: string, role: 'from' | 'to'): Promise<Storage> {
  if (isPostgresUrl(place)) return openPostgresStorage(place, { readOnly: role === 'from' });
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(place)) throw new Error(`--${role} must be a data directory or a postgres:// URL, not "${redactUrl(place)}"`);
  const dir = resolve(place);
  if (role === 'from' && !existsSync(join(dir, DATABASE_FILE)))
    throw new Error(`--from ${dir}: no Verdict data there (it has no ${DATABASE_FILE}); name the data directory a server or the app has used`);
  if (role === 'to') mkdirSync(dir, { recursive: true, mode: 0o700 });
  return openSqliteStorage(join(dir, DATABASE_FILE), { readOnly: role === 'from' });
}
