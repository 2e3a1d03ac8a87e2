/**
 * A separate process charging keys on a Postgres database through the keys' storage port, for the
 * contract test of writers in two processes at once. Bundled by the test (esbuild) and run with Node:
 *   node charge-process.mjs <database url> <key id> <charges> <usd each>
 * Prints "done" once every charge resolved.
 */
import { PgDatabase } from '../core/store/postgres/database';
import { PgKeyStore } from '../core/store/postgres/key-store';

const [url, keyId, count, usd] = process.argv.slice(2);
const db = await PgDatabase.open(url!);
const store = await PgKeyStore.open(db);
const charges: Promise<void>[] = [];
for (let i = 0; i < Number(count); i += 1) {
  charges.push(store.charge(keyId!, Number(usd)));
  // Some charges share a turn of the event loop, some do not, as a server's do.
  if (i % 7 === 0) await new Promise((resolve) => setImmediate(resolve));
}
await Promise.all(charges);
await db.close();
process.stdout.write('done\n');
