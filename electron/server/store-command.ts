import { join, resolve } from 'node:path';
import {
  RequestLog,
  REQUEST_LOG_DIR,
  systemClock,
  silentLogger,
  copyStore,
  CopyRefused,
  TABLES,
  type CopyCounts,
  isPostgresUrl,
  openPlace,
  type Storage,
} from '../core';

export const STORE_USAGE = `  npm run serve -- store copy --from <data dir or postgres:// URL> --to <data dir or postgres:// URL>`;

const LINES: [keyof CopyCounts, string][] = [
  ['keys', 'API keys (hashes, limits and spend)'],
  ['spend_days', "days of the keys' spend"],
  ['rate_window', "requests in the keys' rate window"],
  ['audit_entries', 'audit log entries'],
  ['question_sets', 'question sets'],
  ['cascade_presets', 'cascade presets'],
  ['datasets', 'datasets'],
  ['items', 'dataset items'],
  ['eval_runs', 'evaluation runs'],
  ['results', 'evaluation results'],
  ['calibrations', 'saved calibrations'],
  ['inspector_runs', 'inspector runs'],
  ['verdicts', 'box verdicts'],
  ['verdict_history', 'earlier box verdicts'],
  ['box_items', 'images of the old box review'],
  ['capture_rules', 'capture rules'],
  ['captured_items', "captured items' predictions"],
  ['reviews', "people's reviews of items"],
  ['human_reviews', 'requests sent to people by a human stage'],
  ['claims', "items still to send of runs spread over a team's instances"],
  ['settings', 'settings'],
];

/** `store copy --from … --to …`: exit code 0 when copied, 1 when refused or failed (the reason on stderr). */
export async function runStoreCommand(args: string[], values: { from?: string | undefined; to?: string | undefined }): Promise<number> {
  if (args[0] !== 'copy' || args.length > 1) {
    process.stderr.write(`Unknown store command "${args.join(' ')}". Usage:\n${STORE_USAGE}\n`);
    return 1;
  }
  if (!values.from || !values.to) {
    process.stderr.write(`store copy needs --from and --to. Usage:\n${STORE_USAGE}\n`);
    return 1;
  }
  if (values.from === values.to) {
    process.stderr.write('store copy: --from and --to name the same place\n');
    return 1;
  }
  let from: Storage | undefined;
  let to: Storage | undefined;
  try {
    from = await openPlace(values.from, 'from');
    to = await openPlace(values.to, 'to');
    // A data directory's request log already counted in its keys' spend (an older version's, or the
    // log a team instance kept there): folded now, before the copied keys arrive, so that the spend
    // they bring is never counted again from it.
    if (!isPostgresUrl(values.to))
      await RequestLog.open({ dir: join(resolve(values.to), REQUEST_LOG_DIR), legacy: to.legacySpend, clock: systemClock, logger: silentLogger, mode: 'read' });
    const counts = await copyStore(from, to);
    const lines = LINES.map(([key, label]) => `  ${String(counts[key]).padStart(8)} ${label}`);
    process.stdout.write(`Copied from ${from.where} to ${to.where}:\n${lines.join('\n')}\n`);
    if (counts.settings_kept > 0) process.stdout.write(`  ${counts.settings_kept} settings the target already had were left as they were.\n`);
    const left = new Map<string, string[]>();
    for (const [table, why] of Object.entries(TABLES)) if (why !== null) left.set(why, [...(left.get(why) ?? []), table]);
    process.stdout.write(`Not copied:\n${[...left].map(([why, tables]) => `  ${tables.join(', ')}: ${why}`).join('\n')}\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`${error instanceof CopyRefused ? error.message : `store copy failed: ${(error as Error).message}`}\n`);
    return 1;
  } finally {
    await from?.close().catch(() => undefined);
    await to?.close().catch(() => undefined);
  }
}
