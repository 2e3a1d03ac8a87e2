import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngWithRect } from '../../test-support/images';
import { sharedPostgres, type SharedPostgres } from '../../test-support/shared-postgres';
import { tempCore, tempDir, AS_DESKTOP } from '../../test-support/temp-core';
import { until } from '../../test-support/until';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { copyStore, CopyRefused, TABLES } from './copy';
import { alphaShape } from '../public-api/shapes';
import { answerShape } from '../public-api/answer-shape';
import type { Storage } from './ports';
import { openPostgresStorage, type PostgresStorage } from './postgres/storage';
import { openSqliteStorage, type SqliteStorage } from './sqlite/storage';
import { DATABASE_FILE, openPlace } from './open';

/** Rows in every table a copy carries, counted with SQL on either backend. */
async function rowCounts(s: Storage): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of await s.tables()) {
    if (TABLES[table] !== null) continue;
    const sql = `SELECT count(*) AS n FROM ${table}`;
    counts[table] =
      'store' in s ? (s as SqliteStorage).store.get<{ n: number }>(sql)!.n : Number((await (s as PostgresStorage).db.query<{ n: string }>(sql))[0]!.n);
  }
  return counts;
}

/** Everything a store holds that a copy carries, read through the ports, in a stable order. */
async function dump(s: Storage) {
  const datasets = await s.datasets.list();
  const runs = await s.evalRuns.listRuns({ limit: 1000 });
  const byId = <T extends { id: string }>(list: T[]) => [...list].sort((a, b) => (a.id < b.id ? -1 : 1));
  return {
    settings: await s.settings.all(),
    keys: byId((await s.keys.all()).map((k) => ({ ...k, hash: k.hash.toString('hex') }))),
    sets: byId(await s.questionSets.live()),
    inspectorRuns: byId(await s.runs.list({ limit: 1000 })),
    datasets: await Promise.all(
      byId(datasets).map(async (d) => ({
        ...d,
        items: await s.datasets.itemsAfter(d.id, -1, 100_000),
        verdicts: await s.boxes.allVerdicts(d.id),
        history: await s.boxes.allHistory(d.id),
        sizes: [...(await s.boxes.imageSizes(d.id))].sort(([a], [b]) => (a < b ? -1 : 1)),
        predictions: await s.captures.predictions(d.id, null),
        reviews: await s.reviews.reviews(d.id, null),
        human: await s.humanReviews.all(d.id),
      })),
    ),
    evalRuns: await Promise.all(byId(runs).map(async (r) => ({ ...r, results: await s.evalResults.exportResults(r.id) }))),
    calibrations: [...(await s.calibrations.calibrations())].sort((a, b) => (a.model + a.question < b.model + b.question ? -1 : 1)),
    boxItems: byId(await s.boxes.listItems({ images: true })),
    presets: await s.cascadePresets.list(),
    captures: await s.captures.list(),
    audit: await s.audit.list({ offset: 0, limit: 1000 }),
    spendDays: await Promise.all((await s.keys.all()).map(async (k) => [k.id, [...(await s.keys.spendByDay(k.id, '0000-00-00'))]])),
    claims: await Promise.all(byId(runs).map((r) => s.evalWork.exportClaims(r.id))),
  };
}

const image = (name: string) => ({ name, data_url: pngWithRect(64, 48, { x: 8, y: 6, w: 20, h: 10 }) });

describe('store copy', () => {
  let postgres: SharedPostgres;
  const database = () => postgres.createDatabase('copy');
  beforeAll(() => {
    postgres = sharedPostgres();
  });
  afterAll(() => postgres?.stop());

  /** A laptop's data directory with some of everything, made the way people make it: through the core's handlers. */
  async function laptop() {
    const env = await tempCore({ sandbox: { seed: 7, failures: false, timeScale: 0 } });
    const h = env.core.handlers;
    await h['settings.update']({ theme: 'dark' });
    // Through the handlers, so that the audit log has their entries.
    const ci = await h['apiKeys.create']({ name: 'ci', kind: 'standard', credit_limit: 5, rate_limit_rpm: 60 }, AS_DESKTOP);
    const revoked = await h['apiKeys.create']({ name: 'old', kind: 'standard', credit_limit: null, rate_limit_rpm: null }, AS_DESKTOP);
    await h['apiKeys.revoke']({ id: revoked.info.id }, AS_DESKTOP);
    // Spend by day, and a request in the key's rate window.
    await env.core.spend.charge(ci.info.id, 0.25, 'copy-test');
    await env.core.admission.onRequest(ci.info.id, 'copy-test', false);
    await h['cascadePresets.save']({ name: 'tickets', model: 'sandbox/sharp-large', first_model: null, when: { confidenceBelow: 0.6 } }, AS_DESKTOP);
    const request = {
      model: 'sandbox/baseline-text',
      state: 'The parcel came late',
      questions: { zeta: { type: 'noul' as const, instructions: 'Late?' }, alpha: { type: 'noul' as const, instructions: 'Damaged?' } },
    };
    await env.core.questionSets.save({ name: 'Triage', request });
    await env.core.questionSets.save({ name: 'Cascaded', request, cascade: 'tickets' });
    const run = await env.core.runs.start(request, null, 'Triage');
    await until(
      () => env.core.runs.get(run.id),
      (r) => r.status !== 'running',
    );
    const ds = await h['datasets.import'](
      {
        name: 'tickets',
        format: 'jsonl',
        content: ['late', 'on time', 'late again'].map((t, i) => JSON.stringify({ id: `t${i}`, state: t, expected: { zeta: i !== 1 } })).join('\n'),
        questions: request.questions,
        valid_only: false,
        take_suggestions: false,
      },
      AS_DESKTOP,
    );
    const evalRun = await h['evals.start']({
      request,
      dataset_id: ds.dataset!.id,
      variants: [{ model: 'sandbox/baseline-text' }, { model: 'sandbox/baseline-text', label: 'again' }],
      concurrency: 2,
    });
    await until(
      () => h['evals.get']({ id: evalRun.id }),
      (r) => r.status !== 'running',
    );
    await h['evals.saveCalibration']({ id: evalRun.id, variant: 0, question: 'zeta', temperature: 1.5 });
    const boxes = await h['boxReview.addImages']({ name: 'shelves', images: [image('a.png'), image('b.png')] }, AS_DESKTOP);
    await h['boxReview.update']({
      dataset_id: boxes.id,
      position: 0,
      run_id: null,
      variant: 0,
      truth: [{ label: 'card', top: 0.1, left: 0.1, bottom: 0.5, right: 0.5 }],
    });
    await h['boxReview.update']({ dataset_id: boxes.id, position: 0, run_id: null, variant: 0, verdict: 'accepted', note: 'fine' });
    // A verdict changed leaves the first in the history.
    await h['boxReview.update']({ dataset_id: boxes.id, position: 0, run_id: null, variant: 0, verdict: 'rejected' });
    await h['boxes.add']({ name: 'legacy.png', data_url: image('legacy.png').data_url });
    // A capture rule, and a live request through the public API's path that it captured.
    await h['captures.create'](
      { name: 'live triage', key_ids: [ci.info.id], sample_rate: 1, daily_cap: 100, retention_days: 30, keep_images: false },
      AS_DESKTOP,
    );
    const key = (await env.core.apiKeys.verify(ci.key))!;
    await answerShape(env.core, alphaShape, { json: request, header: () => undefined, key, requestId: 'req-live-1', signal: undefined });
    await env.core.captureTap.flush();
    // One a cascade sent to a person.
    const staged = { ...request, cascade: { model: 'human', when: { probabilityBetween: [0, 1] } } };
    await answerShape(env.core, alphaShape, { json: staged, header: () => undefined, key, requestId: 'req-human-1', signal: undefined });
    // The rule took it too.
    await env.core.captureTap.flush();
    // A person answered the captured one.
    const captured = (await h['captures.list']({}))[0]!.dataset_id;
    const open = await h['review.next']({ dataset_id: captured, after: -1 }, AS_DESKTOP);
    await h['review.answer']({ dataset_id: captured, position: open.item!.position, answers: { zeta: true, alpha: false }, flagged: false }, AS_DESKTOP);
    return env;
  }

  it('SQLite to Postgres to SQLite brings every row back equal', async () => {
    const env = await laptop();
    const back = tempDir();
    let pg: Storage | undefined;
    let again: Storage | undefined;
    let source: Storage | undefined;
    try {
      // A second connection to the laptop's file, as the command opens it beside the app.
      source = openSqliteStorage(join(env.dataDir, DATABASE_FILE));
      const original = await dump(source);
      // Something of each kind is there to copy.
      expect(original.keys.map((k) => [k.name, k.revoked_at !== null]).sort()).toEqual([
        ['ci', false],
        ['old', true],
      ]);
      pg = await openPostgresStorage(await database());
      const there = await copyStore(source, pg);
      expect(there).toMatchObject({
        keys: 2,
        question_sets: 2,
        cascade_presets: 1,
        spend_days: 1,
        rate_window: 1,
        inspector_runs: 1,
        datasets: 4,
        items: 8,
        capture_rules: 1,
        captured_items: 3,
        reviews: 1,
        human_reviews: 1,
        eval_runs: 1,
        results: 6,
        calibrations: 1,
        box_items: 1,
      });
      expect(there.verdicts).toBeGreaterThan(0);
      expect(there.verdict_history).toBeGreaterThan(0);
      expect(there.audit_entries).toBeGreaterThanOrEqual(4);
      expect(await dump(pg)).toEqual(original);
      again = openSqliteStorage(join(back.path, DATABASE_FILE));
      await copyStore(pg, again);
      expect(await dump(again)).toEqual(original);
      // Every table a copy carries has as many rows on each side, on both backends, and each holds some.
      const counts = await rowCounts(source);
      expect(await rowCounts(pg)).toEqual({ ...counts, spend_ledger: (await rowCounts(pg))['spend_ledger'] });
      expect(await rowCounts(again)).toEqual(counts);
      const empty = Object.entries(counts).filter(([table, n]) => n === 0 && table !== 'eval_claims' && table !== 'decisions');
      expect(empty).toEqual([]);
    } finally {
      await source?.close();
      await pg?.close();
      await again?.close();
      back.cleanup();
      await env.cleanup();
    }
  }, 60_000);

  it('refuses a copy that would not go in whole, naming each problem, and writes nothing', async () => {
    const env = await laptop();
    let pg: Storage | undefined;
    let source: Storage | undefined;
    try {
      source = openSqliteStorage(join(env.dataDir, DATABASE_FILE));
      pg = await openPostgresStorage(await database());
      await copyStore(source, pg);
      const before = await dump(pg);
      const refused = await copyStore(source, pg).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(CopyRefused);
      const problems = (refused as CopyRefused).problems.join('\n');
      expect(problems).toMatch(/already has 2 API keys with the same id/);
      expect(problems).toMatch(/already has 2 question sets with the same id/);
      expect(problems).toMatch(/already has a cascade preset with the same id \(tickets\)/);
      expect(problems).toMatch(/already has 4 datasets with the same id/);
      expect(problems).toMatch(/already has an evaluation run with the same id/);
      expect(problems).toMatch(/already has a capture rule with the same id/);
      expect(await dump(pg)).toEqual(before);
    } finally {
      await source?.close();
      await pg?.close();
      await env.cleanup();
    }
  }, 60_000);

  it('reads its source without changing a byte of it, and refuses one of an older schema rather than upgrade it', async () => {
    const env = await laptop();
    const file = join(env.dataDir, DATABASE_FILE);
    let source: Storage | undefined;
    let pg: Storage | undefined;
    try {
      // What a closed app leaves: the file alone.
      await env.core.close();
      const before = createHash('sha256').update(readFileSync(file)).digest('hex');
      source = await openPlace(env.dataDir, 'from');
      pg = await openPostgresStorage(await database());
      await copyStore(source, pg);
      await source.close();
      source = undefined;
      expect(createHash('sha256').update(readFileSync(file)).digest('hex')).toBe(before);
      // An older schema: read as it is, never migrated in place.
      const old = openSqliteStorage(file);
      old.store.run('PRAGMA user_version = 23');
      await old.close();
      const older = createHash('sha256').update(readFileSync(file)).digest('hex');
      await expect(openPlace(env.dataDir, 'from')).rejects.toThrow(
        /is of an older Verdict \(schema 23, this build's is \d+\) and is only read here, never changed: start this version once on its data directory/,
      );
      expect(createHash('sha256').update(readFileSync(file)).digest('hex')).toBe(older);
    } finally {
      await source?.close();
      await pg?.close();
      await env.cleanup();
    }
  }, 60_000);

  it('refuses a source holding a table it does not know, naming it, and writes nothing', async () => {
    const env = await laptop();
    const target = tempDir();
    let source: SqliteStorage | undefined;
    let to: Storage | undefined;
    try {
      source = openSqliteStorage(join(env.dataDir, DATABASE_FILE));
      source.store.run('CREATE TABLE review_queue (id TEXT PRIMARY KEY)');
      to = openSqliteStorage(join(target.path, DATABASE_FILE));
      const refused = await copyStore(source, to).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(CopyRefused);
      expect((refused as CopyRefused).problems).toContain(
        'the source holds a table this build does not know (review_queue): copy with the build that wrote it',
      );
      expect(await to.keys.all()).toEqual([]);
    } finally {
      await source?.close();
      await to?.close();
      target.cleanup();
      await env.cleanup();
    }
  }, 60_000);
});
