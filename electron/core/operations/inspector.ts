import { actorOf, type Handlers } from './index';
import type { AuditLog } from '../audit/audit-log';
import type { BoxItems } from '../boxes/box-items';
import type { CascadePresets } from '../cascade-presets/cascade-presets';
import type { Catalog } from '../catalog/catalog';
import type { Clock } from '../clock';
import type { Datasets } from '../datasets/datasets';
import type { QuestionSets } from '../question-sets/question-sets';
import type { Runs } from '../runs/runs';
import type { GatewayService } from '../service';
import type { SettingsStore } from '../settings/settings';
import type { CatalogFile } from '../../../shared/schemas/catalog';
import { DecisionsRequestSchema } from '../../../shared/schemas/decisions-request';
import { summarizeIssues } from '../../../shared/contract/result';
import { GatewayError } from '../errors';
import { knownModel, stagesFromCascadeField, withoutCascade } from '../public-api/cascade-request';
import type { AuditActor } from '../../../shared/schemas/audit';
import { checkedCatalogFile, exportCatalogFile } from './catalog';
import { checkDatasets, type DatasetBackup } from '../datasets/dataset-backup';

type InspectorOps = Pick<
  Handlers,
  | 'sets.list'
  | 'sets.get'
  | 'sets.save'
  | 'sets.delete'
  | 'sets.restore'
  | 'runs.start'
  | 'runs.get'
  | 'runs.cancel'
  | 'runs.delete'
  | 'runs.list'
  | 'boxes.list'
  | 'boxes.image'
  | 'boxes.add'
  | 'boxes.update'
  | 'boxes.remove'
  | 'backup.export'
  | 'backup.import'
>;

/** Question sets and runs: what analysts compose, run and compare. */
/** What the inspector's operations use: sets, presets, runs, box items, the backup's parts and the audit log. */
export interface InspectorDeps {
  readonly clock: Clock;
  readonly audit: AuditLog;
  readonly catalog: Catalog;
  readonly settings: SettingsStore;
  readonly questionSets: QuestionSets;
  readonly cascadePresets: CascadePresets;
  readonly runs: Runs;
  readonly boxItems: BoxItems;
  readonly datasets: Datasets;
  readonly datasetBackup: DatasetBackup;
  service(): GatewayService;
  refreshSandbox(): Promise<void>;
  replaceCatalogFile(file: CatalogFile): Promise<void>;
}

export function inspectorHandlers(core: InspectorDeps): InspectorOps {
  return {
    'sets.list': async () => core.questionSets.list(),
    'sets.get': async ({ id }) => core.questionSets.get(id),
    'sets.save': async (input, context) => saveSet(core, input, actorOf(context, 'sets.save')),
    'sets.delete': async ({ id }, context) => {
      const actor = actorOf(context, 'sets.delete');
      const name = await core.questionSets.nameOf(id);
      const gone = await core.questionSets.delete(id);
      await core.audit.record(actor, 'set.delete', { kind: 'set', id, name });
      return gone;
    },
    'sets.restore': async ({ id }, context) => {
      const actor = actorOf(context, 'sets.restore');
      const set = await core.questionSets.restore(id);
      await core.audit.record(actor, 'set.restore', { kind: 'set', id, name: set.name });
      return set;
    },
    'runs.start': async ({ request, set_id, label, cascade }) => {
      // A preset deleted since the set was saved refuses the run: one model answering alone would pass for the cascade.
      if (cascade !== undefined && !(await core.cascadePresets.presetByName(cascade)))
        throw new GatewayError('bad_request', `cascade: the cascade preset "${cascade}" no longer exists; pick another for the set, or none`);
      const stages = cascade === undefined ? null : await stagesFromCascadeField(cascade, request, core.cascadePresets, knownModel(core));
      return core.runs.start(request, set_id ?? null, label ?? null, stages);
    },
    'runs.get': async ({ id }) => core.runs.get(id),
    'runs.cancel': async ({ id }) => core.runs.cancel(id),
    'runs.delete': async ({ id }) => core.runs.remove(id),
    'runs.list': async (filters) => core.runs.list(filters),
    'boxes.list': async ({ images }) => core.boxItems.list({ images: images ?? true }),
    'boxes.image': async ({ id }) => core.boxItems.image(id),
    'boxes.add': async ({ name, data_url }) => core.boxItems.add(name, data_url),
    'boxes.update': async ({ id, ...patch }) => core.boxItems.update(id, patch),
    'boxes.remove': async ({ id }) => core.boxItems.remove(id),
    'backup.export': async () => exportBackup(core),
    'backup.import': async ({ backup }) => importBackup(core, backup),
  };
}

/** A question set saved (its cascade preset checked against its model and questions now), with a create or update entry in the audit log. */
async function saveSet(core: InspectorDeps, input: Parameters<InspectorOps['sets.save']>[0], actor: AuditActor) {
  const before = input.id ? await core.questionSets.nameOf(input.id) : null;
  // The preset must exist and fit the set's model and questions now, not when the set is first run.
  if (input.cascade) await stagesFromCascadeField(input.cascade, input.request, core.cascadePresets, knownModel(core));
  const saved = await core.questionSets.save(input);
  const questions = Object.keys(input.request.questions);
  const target = { kind: 'set', id: saved.id, name: saved.name } as const;
  if (before !== null)
    await core.audit.record(actor, 'set.update', target, { ...(before !== saved.name ? { name: { before, after: saved.name } } : {}), questions });
  else await core.audit.record(actor, 'set.create', target, { questions });
  return saved;
}

/** Settings, the catalog file, question sets, box items and datasets as one backup file. */
async function exportBackup(core: InspectorDeps) {
  return {
    verdict_backup: 1 as const,
    exported_at: new Date(core.clock.now()).toISOString(),
    settings: core.settings.get(),
    catalog: exportCatalogFile(core),
    question_sets: await Promise.all(
      (await core.questionSets.list()).map(async (s) => {
        // A set's cascade preset travels by name, in the request as the API's extension does.
        const { request, cascade } = await core.questionSets.get(s.id);
        return { name: s.name, request: cascade ? { ...request, cascade } : request };
      }),
    ),
    box_items: (await core.boxItems.list()).map(({ id: _id, created_at: _c, ...item }) => item),
    datasets: await collectAll(core.datasetBackup.export()),
  };
}

/** A backup restored: every part checked before anything changes, so a bad backup leaves everything as it was. */
async function importBackup(core: InspectorDeps, backup: Parameters<InspectorOps['backup.import']>[0]['backup']) {
  // Check every part before changing anything, so a bad backup leaves everything as it was.
  const sets = backup.question_sets.map((s, i) => {
    const { cascade, body } = withoutCascade(s.request);
    const parsed = DecisionsRequestSchema.safeParse(body);
    if (!parsed.success) throw new GatewayError('bad_request', `question_sets[${i}].request: ${summarizeIssues(parsed.error)}`);
    if (cascade !== undefined && typeof cascade !== 'string')
      throw new GatewayError('bad_request', `question_sets[${i}].request.cascade: the name of a cascade preset`);
    // The preset is not in the backup: a set naming one missing here refuses to run, saying which.
    return { name: s.name, request: parsed.data, cascade: cascade ?? null };
  });
  const catalog = checkedCatalogFile(core.catalog, backup.catalog);
  checkDatasets(backup.datasets);
  await core.replaceCatalogFile(catalog);
  await core.settings.update(backup.settings);
  await core.refreshSandbox();
  for (const s of sets) await core.questionSets.save(s);
  for (const item of backup.box_items) {
    const added = await core.boxItems.add(item.name, item.data_url);
    // A stale verdict stays stale: it is given before the run it predates is restored.
    const ran = { answer: item.answer, answers: item.answers, model: item.model, run_id: item.run_id };
    const reviewed = { truth: item.truth, verdict: item.verdict, note: item.note };
    if (item.stale) await core.boxItems.update((await core.boxItems.update(added.id, reviewed)).id, ran);
    else await core.boxItems.update((await core.boxItems.update(added.id, ran)).id, reviewed);
  }
  const datasets = await core.datasetBackup.import(backup.datasets);
  return { question_sets: sets.length, box_items: backup.box_items.length, catalog_endpoints: catalog.endpoints.length, datasets };
}

async function collectAll<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}
