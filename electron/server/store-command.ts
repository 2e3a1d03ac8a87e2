import { copyStore, CopyRefused, type CopyCounts } from '../core/store/copy';
import { openPlace } from '../core/store/open';
import type { Storage } from '../core/store/ports';

export const STORE_USAGE = `  npm run serve -- store copy --from <data dir or postgres:// URL> --to <data dir or postgres:// URL>`;

const LINES: [keyof CopyCounts, string][] = [
  ['keys', 'API keys (hashes, limits and spend)'],
  ['question_sets', 'question sets'],
  ['datasets', 'datasets'],
  ['items', 'dataset items'],
  ['eval_runs', 'evaluation runs'],
  ['results', 'evaluation results'],
  ['calibrations', 'saved calibrations'],
  ['inspector_runs', 'inspector runs'],
  ['verdicts', 'box verdicts'],
  ['verdict_history', 'earlier box verdicts'],
  ['box_items', 'images of the old box review'],
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
    const counts = await copyStore(from, to);
    const lines = LINES.map(([key, label]) => `  ${String(counts[key]).padStart(8)} ${label}`);
    process.stdout.write(`Copied from ${from.where} to ${to.where}:\n${lines.join('\n')}\n`);
    if (counts.settings_kept > 0) process.stdout.write(`  ${counts.settings_kept} settings the target already had were left as they were.\n`);
    process.stdout.write('Provider keys are secrets of the machine they were entered on and were not copied; endpoint figures and learned refusals neither.\n');
    return 0;
  } catch (error) {
    process.stderr.write(`${error instanceof CopyRefused ? error.message : `store copy failed: ${(error as Error).message}`}\n`);
    return 1;
  } finally {
    await from?.close().catch(() => undefined);
    await to?.close().catch(() => undefined);
  }
}
