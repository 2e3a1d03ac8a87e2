import { parse as parseCsv } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempCore, type TempCore, AS_DESKTOP } from '../../test-support/temp-core';
import { until } from '../../test-support/until';

const QUESTIONS = {
  late: { type: 'noul' as const, instructions: 'Did the parcel arrive late?' },
  topic: { type: 'choice' as const, instructions: 'Topic?', criteria: { delivery: 'late parcel', billing: 'invoice' } },
};
const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** Dataset and evaluation operations through the handlers, on the simulated providers. */
describe('evaluation operations', () => {
  let env: TempCore;
  beforeAll(async () => {
    env = await tempCore({ sandbox: { seed: 3, failures: false, timeScale: 0 } });
  });
  afterAll(() => env.cleanup());

  it('saves inspector runs as a dataset, their answers as expected answers', async () => {
    const h = env.core.handlers;
    const run = await h['runs.start']({ request: { model: 'sandbox/baseline-text', state: 'The parcel arrived two days late.', questions: QUESTIONS } });
    const done = await until(
      () => h['runs.get']({ id: run.id }),
      (r) => r.status !== 'running',
    );
    const answers = (done.response as { answers: { late: { noul: number }; topic: { choice: string } } }).answers;
    const dataset = await h['datasets.fromRuns']({ name: 'from runs', run_ids: [run.id] }, AS_DESKTOP);
    expect(dataset).toMatchObject({ name: 'from runs', items: 1 });
    const { items } = await h['datasets.items']({ dataset_id: dataset.id, offset: 0, limit: 10 });
    expect(items[0]).toMatchObject({
      id: run.id,
      state: 'The parcel arrived two days late.',
      expected: { late: answers.late.noul >= 0.5, topic: answers.topic.choice },
    });
  });

  it('imports a CSV, estimates, runs two models, reports, exports and filters the matrix', async () => {
    const h = env.core.handlers;
    const csv =
      'id,state,expected.late,expected.topic\n' +
      Array.from(
        { length: 10 },
        (_, i) => `i${i},"Parcel ${i} ${i % 2 ? 'arrived late' : 'invoice question'}",${i % 2 === 1},${i % 2 ? 'delivery' : 'billing'}`,
      ).join('\n');
    const imported = await h['datasets.import'](
      { name: 'tickets.csv', format: 'csv', content: csv, questions: QUESTIONS, valid_only: false, take_suggestions: false },
      AS_DESKTOP,
    );
    expect(imported.imported).toBe(10);
    const input = {
      request: { model: 'sandbox/baseline-text', state: '', questions: QUESTIONS },
      dataset_id: imported.dataset!.id,
      variants: [{ model: 'sandbox/baseline-text' }, { model: 'sandbox/baseline-text', label: 'bargain only', provider: { only: ['sandbox-bargain'] } }],
    };
    const estimate = await h['evals.estimate'](input);
    expect(estimate).toMatchObject({ calls: 20, items: 10, estimated: true });
    expect(estimate.cost_usd).toBeGreaterThan(0);
    const run = await h['evals.start']({ ...input, concurrency: 4 });
    const done = await until(
      () => h['evals.get']({ id: run.id }),
      (r) => r.status !== 'running',
    );
    expect(done).toMatchObject({ status: 'done', done: 20, total: 20 });
    expect(done.variants.map((v) => v.name)).toEqual(['sandbox/baseline-text', 'sandbox/baseline-text (bargain only)']);
    const report = await h['evals.report']({ id: run.id });
    expect(report.models.map((m) => [m.model, m.items])).toEqual([
      ['sandbox/baseline-text', 10],
      ['sandbox/baseline-text (bargain only)', 10],
    ]);
    expect(report.models[0]!.questions['late']).toMatchObject({ type: 'noul', n: 10 });
    const bargain = await h['evals.item']({ id: run.id, position: 0 });
    expect(bargain.results[1]!.provider).toMatch(/Bargain/);
    const csvOut = (await h['evals.export']({ id: run.id, format: 'csv' })).content.trim().split('\n');
    expect(csvOut).toHaveLength(21);
    expect(csvOut[0]).toBe(
      'id,position,model,ok,provider,input_tokens,output_tokens,cost_usd,latency_ms,error,answer.late,expected.late,method.late,correct.late,confidence.late,answer.topic,expected.topic,method.topic,correct.topic,confidence.topic',
    );
    // Right or wrong as the metrics judge it, and the confidence they use: a spreadsheet agrees with the report.
    const header = csvOut[0]!.split(',');
    const cellsOf = (line: string) => (parseCsv(line) as string[][])[0]!;
    const rightLate = csvOut
      .slice(1)
      .filter((l) => cellsOf(l)[header.indexOf('model')] === 'sandbox/baseline-text' && cellsOf(l)[header.indexOf('correct.late')] === 'true').length;
    const textReport = (await h['evals.report']({ id: run.id })).models[0]!.questions['late']!;
    expect(rightLate / 10).toBeCloseTo(textReport['accuracy'] as number, 10);
    for (const line of csvOut.slice(1)) {
      const c = cellsOf(line);
      const p = Number(c[header.indexOf('answer.late')]);
      expect(Number(c[header.indexOf('confidence.late')])).toBeCloseTo(Math.max(p, 1 - p), 10);
    }
    const all = await h['evals.results']({ id: run.id, filter: 'all', offset: 0, limit: 5, below: 0.7 });
    expect(all.total).toBe(10);
    expect(all.rows).toHaveLength(5);
    const wrong = await h['evals.results']({ id: run.id, filter: 'wrong', offset: 0, limit: 100, below: 0.7 });
    for (const row of wrong.rows) expect(row.cells.some((c) => Object.values(c.correct).includes(false) || !c.ok)).toBe(true);
  });
});

describe('images as a dataset', () => {
  it('imports images with a labels CSV by file name, refusing a bad label with its row and field', async () => {
    const env = await tempCore();
    try {
      const h = env.core.handlers;
      const questions = {
        parcel: { type: 'box' as const, instructions: 'Where is the parcel?' },
        visible: { type: 'noul' as const, instructions: 'Is a parcel visible?' },
      };
      const images = [
        { name: 'b.png', data_url: PNG },
        { name: 'a.png', data_url: PNG },
      ];
      const good = await h['datasets.importImages'](
        {
          name: 'photos',
          images,
          questions,
          valid_only: false,
          take_suggestions: false,
          labels: {
            format: 'csv',
            content: 'id,expected.visible,expected.parcel\na.png,true,"{""top"":0.1,""bottom"":0.4,""left"":0.2,""right"":0.5}"\nb,false,\n',
          },
        },
        AS_DESKTOP,
      );
      const { items } = await h['datasets.items']({ dataset_id: good.dataset!.id, offset: 0, limit: 10 });
      expect(items.map((i) => [i.id, i.expected])).toEqual([
        ['b.png', { visible: false }],
        ['a.png', { visible: true, parcel: { top: 0.1, bottom: 0.4, left: 0.2, right: 0.5 } }],
      ]);
      const bad = await h['datasets.importImages'](
        {
          name: 'photos',
          images,
          questions,
          valid_only: false,
          take_suggestions: false,
          labels: { format: 'csv', content: 'id,expected.parcel\na.png,"{""top"":0.6,""bottom"":0.4,""left"":0.2,""right"":0.5}"\n' },
        },
        AS_DESKTOP,
      );
      expect(bad.dataset).toBeNull();
      // The problem is in the labels file: named there, with its row.
      expect(bad.problems[0]).toMatchObject({ file: 'labels.csv', row: 2, field: 'expected.parcel' });
    } finally {
      await env.cleanup();
    }
  });
});

describe('datasets.fit', () => {
  it('says per dataset how many items carry labels for the set, whether they are images, and when the set last ran on it', async () => {
    const env = await tempCore({ sandbox: { seed: 3, failures: false, timeScale: 0 } });
    try {
      const h = env.core.handlers;
      // Three tickets, two of them labelled for `late` only; `topic` is labelled nowhere.
      const csv = 'id,state,expected.late\nt1,Parcel late,true\nt2,Invoice,false\nt3,Unlabelled,\n';
      const tickets = (
        await h['datasets.import'](
          { name: 'tickets', format: 'csv', content: csv, questions: QUESTIONS, valid_only: false, take_suggestions: false },
          AS_DESKTOP,
        )
      ).dataset!;
      const shelf = (
        await h['datasets.importImages'](
          {
            name: 'shelf',
            images: [{ name: 'a.png', data_url: PNG }],
            questions: { card: { type: 'box', instructions: 'The card' } },
            valid_only: false,
            take_suggestions: false,
          },
          AS_DESKTOP,
        )
      ).dataset!;
      const fitOf = async (questions: Parameters<(typeof h)['datasets.fit']>[0]['questions'], id: string) =>
        (await h['datasets.fit']({ questions })).find((f) => f.dataset_id === id);
      expect(await fitOf(QUESTIONS, tickets.id)).toEqual({ dataset_id: tickets.id, labelled_items: 2, images: false, last_run_at: null });
      expect(await fitOf(QUESTIONS, shelf.id)).toEqual({ dataset_id: shelf.id, labelled_items: 0, images: true, last_run_at: null });
      expect((await fitOf({ topic: QUESTIONS.topic }, tickets.id))!.labelled_items).toBe(0);

      const run = await h['evals.start']({
        request: { model: 'sandbox/baseline-text', state: '', questions: QUESTIONS },
        dataset_id: tickets.id,
        variants: [{ model: 'sandbox/baseline-text' }],
        concurrency: 2,
      });
      await until(
        () => h['evals.get']({ id: run.id }),
        (r) => r.status !== 'running',
      );
      // The set is known by its questions: the same questions under another set name ran there.
      expect((await fitOf(QUESTIONS, tickets.id))!.last_run_at).toBe(run.created_at);
      expect((await fitOf(QUESTIONS, shelf.id))!.last_run_at).toBeNull();
      expect((await fitOf({ late: QUESTIONS.late }, tickets.id))!.last_run_at).toBeNull();
    } finally {
      await env.cleanup();
    }
  });
});

describe('deleting a dataset', () => {
  it('stops its running evaluation and removes the run with it', async () => {
    const env = await tempCore({ sandbox: { seed: 5, failures: false, timeScale: 1 } });
    try {
      const h = env.core.handlers;
      const content = Array.from({ length: 30 }, (_, i) => JSON.stringify({ id: `i${i}`, state: `parcel ${i}`, expected: { late: true } })).join('\n');
      const imported = await h['datasets.import'](
        { name: 'd', format: 'jsonl', content, questions: { late: QUESTIONS.late }, valid_only: false, take_suggestions: false },
        AS_DESKTOP,
      );
      const run = await h['evals.start']({
        request: { model: 'sandbox/baseline-text', state: '', questions: { late: QUESTIONS.late } },
        dataset_id: imported.dataset!.id,
        variants: [{ model: 'sandbox/baseline-text' }],
        concurrency: 2,
      });
      await h['datasets.delete']({ id: imported.dataset!.id }, AS_DESKTOP);
      await env.core.evalRuns.wait(run.id).catch(() => undefined);
      expect(await h['evals.list']({})).toEqual([]);
      await expect(h['evals.get']({ id: run.id })).rejects.toThrow(/No evaluation run/);
    } finally {
      await env.cleanup();
    }
  });
});
