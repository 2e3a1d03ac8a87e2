/**
 * Copies a team's or a laptop's data from one store to another (SQLite to PostgreSQL and back):
 * question sets and cascade presets, datasets with their items, evaluation runs with every result
 * (and the claims of a run spread over a team) and the saved calibrations, the inspector's runs, API
 * keys (hashes, limits, revocations, spend in all and by day, the rate window), the audit log, box
 * reviews (verdicts, their history, image sizes, the images of the old box review table) and settings.
 *
 * Every table of the source is in TABLES, copied or left with its reason; a table that is not
 * (a newer build's, say) makes the copy refuse, naming it, rather than leave it behind unsaid.
 * Checked whole before anything is written: every id the copy would add is looked for in the
 * target, and every reference in the source (a run's dataset, a verdict's item, a set's cascade
 * preset) must resolve; any problem is reported and nothing is written. The source is only read
 * (open.ts opens it read-only). The target's own data is never changed: a setting it already has
 * stays as it is.
 */
import type { AuditEntry } from '../../../shared/schemas/audit';
import type { Storage, StoredDataset, StoredEvalRun } from './ports';

/** Every table either backend holds: null when a copy carries it, else why it does not. */
export const TABLES: Readonly<Record<string, string | null>> = {
  api_keys: null,
  spend_ledger: null,
  key_spend_days: null,
  key_requests: null,
  settings: null,
  question_sets: null,
  cascade_presets: null,
  audit_log: null,
  decisions: null,
  datasets: null,
  dataset_items: null,
  eval_runs: null,
  eval_results: null,
  eval_claims: null,
  calibrations: null,
  box_items: null,
  box_verdicts: null,
  box_verdict_history: null,
  box_image_sizes: null,
  capture_rules: null,
  captured_items: null,
  reviews: null,
  human_reviews: null,
  attempts: 'endpoint figures are measurements of the place they were made',
  metric_minutes: 'endpoint figures are measurements of the place they were made',
  endpoint_refusals: "what providers refused is learned again from the target's own providers",
  provider_key_meta: 'provider keys are secrets of the machine they were entered on, and their dates go with them',
  review_leases: "an item open in a reviewer's hands belongs to the server they opened it on: it is opened again",
  ui_sessions: 'sign-ins belong to the server that issued them: people sign in again',
  instances: "a team's live instances announce themselves",
  verdict_schema: "the store's own bookkeeping",
  sqlite_sequence: "the store's own bookkeeping",
  revisions: "the store's own bookkeeping",
  request_log_legacy: "the store's own bookkeeping",
  request_log_checkpoint: "the store's own bookkeeping",
};

export interface CopyCounts {
  settings: number;
  settings_kept: number;
  keys: number;
  question_sets: number;
  inspector_runs: number;
  datasets: number;
  items: number;
  eval_runs: number;
  results: number;
  calibrations: number;
  box_items: number;
  verdicts: number;
  verdict_history: number;
  cascade_presets: number;
  audit_entries: number;
  capture_rules: number;
  captured_items: number;
  reviews: number;
  human_reviews: number;
  spend_days: number;
  rate_window: number;
  claims: number;
}

/** Items read and written at a time, so a dataset of any size is copied in bounded memory. */
const PAGE = 500;
/** As many inspector runs as a store keeps. */
const ALL = 1_000_000_000;

/** A copy refused before anything was written: each problem says what and where. */
export class CopyRefused extends Error {
  constructor(readonly problems: string[]) {
    super(`Nothing was copied: ${problems.length} problem${problems.length === 1 ? '' : 's'}:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

const clash = (what: [string, string], ids: string[]) =>
  ids.length === 0
    ? []
    : [
        `the target already has ${ids.length === 1 ? what[0] : `${ids.length} ${what[1]}`} with the same id (${ids.slice(0, 5).join(', ')}${ids.length > 5 ? ', …' : ''})`,
      ];

/** Every entry of an audit log, oldest first. */
async function auditEntries(from: Storage): Promise<AuditEntry[]> {
  const entries: AuditEntry[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await from.audit.list({ offset, limit: PAGE });
    entries.push(...page.entries);
    if (page.entries.length < PAGE) return entries.reverse();
  }
}

/** What the source holds, without the items, results and images (read again while writing, a page at a time). */
type Survey = Awaited<ReturnType<typeof survey>>;

async function survey(from: Storage) {
  const [keys, sets, runs, datasets, evalRuns, calibrations, boxItems, presets, audit, captures] = await Promise.all([
    from.keys.all(),
    from.questionSets.live(),
    from.runs.list({ limit: ALL }),
    from.datasets.list(),
    from.evalRuns.listRuns({ limit: ALL }),
    from.calibrations.calibrations(),
    from.boxes.listItems({ images: false }),
    from.cascadePresets.list(),
    auditEntries(from),
    from.captures.list(),
  ]);
  return { keys, sets, runs, datasets, evalRuns, calibrations, boxItems, presets, audit, captures };
}

/** The cascade preset a stored set's request names, if any. */
const presetOf = (request: unknown): string | null => {
  const cascade = (request as { cascade?: unknown } | null)?.cascade;
  return typeof cascade === 'string' ? cascade : null;
};

/** Every problem that would stop the copy, found before anything is written. */
async function check(from: Storage, to: Storage, source: Awaited<ReturnType<typeof survey>>): Promise<string[]> {
  const problems: string[] = [];
  const unknown = (await from.tables()).filter((t) => !(t in TABLES));
  if (unknown.length > 0)
    problems.push(
      `the source holds ${unknown.length === 1 ? 'a table' : 'tables'} this build does not know (${unknown.join(', ')}): copy with the build that wrote ${unknown.length === 1 ? 'it' : 'them'}`,
    );
  const target = await survey(to);
  const ids = <T extends { id: string }>(list: readonly T[]) => new Set(list.map((x) => x.id));
  const taken = (mine: readonly { id: string }[], theirs: readonly { id: string }[]) => {
    const there = ids(theirs);
    return mine.filter((x) => there.has(x.id)).map((x) => x.id);
  };
  problems.push(...clash(['an API key', 'API keys'], taken(source.keys, target.keys)));
  const hashes = new Set(target.keys.map((k) => k.hash.toString('hex')));
  const targetIds = ids(target.keys);
  const sameKey = source.keys.filter((k) => !targetIds.has(k.id) && hashes.has(k.hash.toString('hex'))).map((k) => k.id);
  if (sameKey.length > 0) problems.push(`the target already has ${sameKey.length} of these API keys under another id (${sameKey.slice(0, 5).join(', ')})`);
  problems.push(...clash(['a question set', 'question sets'], taken(source.sets, target.sets)));
  problems.push(...clash(['an inspector run', 'inspector runs'], taken(source.runs, target.runs)));
  problems.push(...clash(['a dataset', 'datasets'], taken(source.datasets, target.datasets)));
  // A dataset still importing in the target is not listed but holds its id.
  for (const d of source.datasets)
    if (!target.datasets.some((t) => t.id === d.id) && (await to.datasets.item(d.id, 0))) problems.push(`the target holds items of a dataset "${d.id}"`);
  problems.push(...clash(['an evaluation run', 'evaluation runs'], taken(source.evalRuns, target.evalRuns)));
  problems.push(...clash(['a capture rule', 'capture rules'], taken(source.captures, target.captures)));
  problems.push(...clash(['an image of the old box review', 'images of the old box review'], taken(source.boxItems, target.boxItems)));
  const calibrated = new Set(target.calibrations.map((c) => JSON.stringify([c.set_key, c.model, c.question])));
  const sameCalibration = source.calibrations.filter((c) => calibrated.has(JSON.stringify([c.set_key, c.model, c.question])));
  if (sameCalibration.length > 0)
    problems.push(
      `the target already has a saved calibration for ${sameCalibration.length} of the same question set, model and question (${sameCalibration[0]!.model} "${sameCalibration[0]!.question}")`,
    );
  const names = new Set(target.presets.map((p) => p.name));
  problems.push(
    ...clash(
      ['a cascade preset', 'cascade presets'],
      source.presets.filter((p) => names.has(p.name)).map((p) => p.name),
    ),
  );
  problems.push(
    ...clash(
      ['an audit entry', 'audit entries'],
      taken(
        source.audit,
        (await auditEntries(to)).map((e) => ({ id: e.id })),
      ),
    ),
  );
  // References the copy must carry whole.
  const presets = new Set(source.presets.map((p) => p.name));
  for (const set of source.sets) {
    const preset = presetOf(set.request);
    if (preset !== null && !presets.has(preset))
      problems.push(`question set "${set.name}" names the cascade preset "${preset}", which the source does not have`);
  }
  const datasetIds = ids(source.datasets);
  for (const run of source.evalRuns)
    if (!datasetIds.has(run.dataset_id)) problems.push(`evaluation run "${run.id}" is over dataset "${run.dataset_id}", which the source does not list`);
  for (const d of source.datasets) {
    const items = new Set((await from.datasets.expectations(d.id)).map((i) => i.id));
    if (items.size !== d.items) problems.push(`dataset "${d.id}" says it has ${d.items} items and ${items.size} are stored`);
    const strays = (await from.boxes.allVerdicts(d.id)).filter((v) => !items.has(v.item_id));
    if (strays.length > 0) problems.push(`dataset "${d.id}" has ${strays.length} box verdicts on items it does not have (${strays[0]!.item_id})`);
  }
  return problems;
}

/** Copies `from` into `to` after checking the whole copy; refuses with every problem, writing nothing, when it would not go in whole. */
export async function copyStore(from: Storage, to: Storage): Promise<CopyCounts> {
  const source = await survey(from);
  const problems = await check(from, to, source);
  if (problems.length > 0) throw new CopyRefused(problems);
  const counts: CopyCounts = {
    settings: 0,
    settings_kept: 0,
    keys: 0,
    question_sets: 0,
    inspector_runs: 0,
    datasets: 0,
    items: 0,
    eval_runs: 0,
    results: 0,
    calibrations: 0,
    box_items: 0,
    verdicts: 0,
    verdict_history: 0,
    cascade_presets: 0,
    audit_entries: 0,
    capture_rules: 0,
    captured_items: 0,
    reviews: 0,
    human_reviews: 0,
    spend_days: 0,
    rate_window: 0,
    claims: 0,
  };
  const added: string[] = [];
  try {
    await copyAccounts(from, to, source, counts);
    for (const preset of source.presets) await to.cascadePresets.put(preset);
    counts.cascade_presets = source.presets.length;
    for (const set of source.sets) await to.questionSets.add(set);
    counts.question_sets = source.sets.length;
    for (const entry of source.audit) await to.audit.append(entry);
    counts.audit_entries = source.audit.length;
    for (const run of source.runs) await to.runs.add(run);
    counts.inspector_runs = source.runs.length;
    await copyDatasets(from, to, source, counts, (id) => added.push(id));
    await copyEvaluations(from, to, source, counts);
    await copyCaptures(from, to, source, counts);
    for (const item of source.boxItems) {
      const whole = (await from.boxes.getItem(item.id))!;
      await to.boxes.addItem(whole);
    }
    counts.box_items = source.boxItems.length;
  } catch (error) {
    // The datasets written so far go again, with their runs, results and verdicts (cascades).
    for (const id of added) await to.datasets.remove(id).catch(() => undefined);
    const done = Object.entries(counts)
      .filter(([, n]) => n > 0)
      .map(([k, n]) => `${n} ${k.replaceAll('_', ' ')}`)
      .join(', ');
    throw new Error(
      `The copy stopped: ${(error as Error).message}. The datasets it had copied were removed again; ${done ? `what else it had written stays in the target (${done})` : 'nothing else was written'}.`,
      { cause: error },
    );
  }
  return counts;
}

/** Settings the target lacks (its own are kept), keys with their spend by day, and the last minute's rate window, so a key's limits hold across the move. */
async function copyAccounts(from: Storage, to: Storage, source: Survey, counts: CopyCounts): Promise<void> {
  const [mine, theirs] = await Promise.all([from.settings.all(), to.settings.all()]);
  const missing = Object.fromEntries(Object.entries(mine).filter(([k]) => !(k in theirs)));
  if (Object.keys(missing).length > 0) await to.settings.put(missing);
  counts.settings = Object.keys(missing).length;
  counts.settings_kept = Object.keys(mine).length - counts.settings;
  for (const key of source.keys) {
    await to.keys.add(key);
    const days = await from.keys.spendByDay(key.id, '0000-00-00');
    await to.keys.addSpendDays(key.id, days);
    counts.spend_days += days.size;
  }
  counts.keys = source.keys.length;
  // The rate window of the last minute, so that a key's limit holds across the move too.
  const window = await from.keys.requestsSince(Date.now() - 60_000);
  for (const request of window) to.keys.noteRequest(request);
  await to.keys.flush();
  counts.rate_window = window.length;
}

/** Each dataset with its items, its box verdicts and their history, and its image sizes; `started` is told each dataset the target holds. */
async function copyDatasets(from: Storage, to: Storage, source: Survey, counts: CopyCounts, started: (id: string) => void): Promise<void> {
  for (const d of source.datasets) {
    counts.items += await copyDataset(from, to, d, () => started(d.id));
    counts.datasets += 1;
    const verdicts = await from.boxes.allVerdicts(d.id);
    await to.boxes.putVerdicts(d.id, verdicts);
    counts.verdicts += verdicts.length;
    const history = await from.boxes.allHistory(d.id);
    await to.boxes.putHistory(d.id, history);
    counts.verdict_history += history.length;
    await to.boxes.keepImageSizes(
      d.id,
      [...(await from.boxes.imageSizes(d.id))].map(([item_id, s]) => ({ item_id, ...s })),
    );
  }
}

/** Capture rules (their datasets are there: a rule goes with its dataset), then each dataset's captured items' predictions and people's reviews. */
async function copyCaptures(from: Storage, to: Storage, source: Survey, counts: CopyCounts): Promise<void> {
  for (const { dataset_name: _, ...rule } of source.captures) await to.captures.add(rule);
  counts.capture_rules = source.captures.length;
  for (const d of source.datasets) {
    const predictions = await from.captures.predictions(d.id, null);
    if (predictions.length > 0) await to.captures.putPredictions(d.id, predictions);
    counts.captured_items += predictions.length;
    const reviews = await from.reviews.reviews(d.id, null);
    if (reviews.length > 0) await to.reviews.putReviews(d.id, reviews);
    counts.reviews += reviews.length;
    const human = await from.humanReviews.all(d.id);
    for (const r of human) await to.humanReviews.add(r);
    counts.human_reviews += human.length;
  }
}

/** Evaluation runs with their results and claims, then the calibrations. */
async function copyEvaluations(from: Storage, to: Storage, source: Survey, counts: CopyCounts): Promise<void> {
  // Oldest first, so a run's baseline (always an earlier run) is there before it.
  for (const run of [...source.evalRuns].reverse()) {
    counts.results += await copyEvalRun(from, to, run);
    const claims = await from.evalWork.exportClaims(run.id);
    await to.evalWork.importClaims(run.id, claims);
    counts.claims += claims.length;
  }
  counts.eval_runs = source.evalRuns.length;
  for (const c of source.calibrations) await to.calibrations.saveCalibration(c);
  counts.calibrations = source.calibrations.length;
}

/** Copies one dataset's items; `started` is called once the target holds the dataset (so a failure after removes it). */
async function copyDataset(from: Storage, to: Storage, d: StoredDataset, started: () => void): Promise<number> {
  if (d.sample) {
    // A sample is small, and only a dataset made whole carries the sample mark.
    const items = await readItems(from, d.id);
    await to.datasets.create(d, items);
    started();
    return items.length;
  }
  // Written as an import is: not listed until every item is in, so a copy cut short leaves no half dataset in sight.
  await to.datasets.beginImport({ id: d.id, name: d.name, created_at: d.created_at });
  started();
  let n = 0;
  for (let after = -1; ;) {
    const items = await from.datasets.itemsAfter(d.id, after, PAGE);
    if (items.length > 0) await to.datasets.appendItems(d.id, items);
    n += items.length;
    if (items.length < PAGE) break;
    after = items[items.length - 1]!.position;
  }
  await to.datasets.finishImport(d.id, n);
  return n;
}

async function readItems(from: Storage, datasetId: string) {
  const items: Awaited<ReturnType<Storage['datasets']['itemsAfter']>> = [];
  for (let after = -1; ;) {
    const page = await from.datasets.itemsAfter(datasetId, after, PAGE);
    items.push(...page);
    if (page.length < PAGE) return items;
    after = page[page.length - 1]!.position;
  }
}

async function copyEvalRun(from: Storage, to: Storage, run: StoredEvalRun): Promise<number> {
  await to.evalRuns.addRun(run);
  const results = await from.evalResults.exportResults(run.id);
  await to.evalResults.importResults(run.id, results);
  return results.length;
}
