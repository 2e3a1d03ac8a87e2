/**
 * One instance of a team's server in a process of its own, for tests that kill it (`kill -9`)
 * mid-work. Bundled by the test (esbuild) and run with Node:
 *   node team-process.mjs <database url> <redis url> <upstream url> <backup url> [claim lease ms]
 * Prints "ready <its url> <its data directory>" once it serves; runs until it is killed.
 */
import type { ScriptedUpstream } from './scripted-upstream';
import { teamInstance } from './team';

const [database, redis, upstream, backup, claimLeaseMs] = process.argv.slice(2);
// Only their URLs are read (the catalog's providers): the upstreams themselves live in the test.
const at = (url: string) => ({ url }) as unknown as ScriptedUpstream;
const { server, dirs } = await teamInstance({
  database: database!,
  redis: redis!,
  upstream: at(upstream!),
  backup: at(backup!),
  claimLeaseMs: claimLeaseMs ? Number(claimLeaseMs) : undefined,
});
process.stdout.write(`ready ${server.url} ${dirs[0]!.path}\n`);
