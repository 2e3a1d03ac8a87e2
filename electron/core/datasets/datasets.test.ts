import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Question } from '../../../shared/schemas/question';
import { systemClock } from '../clock';
import { Store } from '../store/sqlite/database';
import { SqliteDatasetStore } from '../store/sqlite/dataset-store';
import { Datasets } from './datasets';
import { imageFolderRows, readLabels, readRows, type DatasetFormat } from './dataset-sources';

const QUESTIONS: Record<string, Question> = {
  late: { type: 'noul', instructions: 'Was it late?' },
  mood: { type: 'choice', instructions: 'Mood', criteria: { happy: null, sad: null } },
  stars: { type: 'score', instructions: 'Stars', criteria: ['one', 'two', 'three'] },
  where: { type: 'box', instructions: 'The parcel' },
};

let dir: { path: string; cleanup(): void };
let store: Store;
let datasets: Datasets;

beforeEach(async () => {
  const path = mkdtempSync(join(tmpdir(), 'verdict-evals-'));
  dir = { path, cleanup: () => rmSync(path, { recursive: true, force: true }) };
  store = Store.open(join(dir.path, 'verdict.sqlite'));
  datasets = await Datasets.open(new SqliteDatasetStore(store), systemClock);
});
afterEach(() => {
  store.close();
  dir.cleanup();
});

const load = (text: string, file: string, format: DatasetFormat, validOnly = false) =>
  datasets.import({ name: file, rows: readRows(Readable.from([text]), file, format), questions: QUESTIONS, validOnly });
const count = () => store.get<{ n: number }>('SELECT COUNT(*) AS n FROM dataset_items')!.n;

describe('dataset import', () => {
  it('imports a labelled CSV with every question type', async () => {
    const csv =
      'id,state,expected.late,expected.mood,expected.stars,expected.where\n' +
      'a,"Late, and sad",true,sad,0,"{""top"":0.1,""bottom"":0.5,""left"":0.2,""right"":0.6}"\n' +
      'b,On time,false,happy,2,\n';
    const report = await load(csv, 'data.csv', 'csv');
    expect(report.problems).toEqual([]);
    expect(report.dataset!.items).toBe(2);
    expect(report.dataset!.labelled).toEqual({ late: 2, mood: 2, stars: 2, where: 1 });
    const page = await datasets.items(report.dataset!.id, { offset: 0, limit: 10 });
    expect(page.items[0]).toEqual({
      position: 0,
      id: 'a',
      state: 'Late, and sad',
      expected: { late: true, mood: 'sad', stars: 0, where: { top: 0.1, bottom: 0.5, left: 0.2, right: 0.6 } },
    });
  });

  it('counts labelled items again after an edit, whoever makes it', async () => {
    const csv = 'id,state,expected.late\n' + 'a,x,true\nb,y,false\nc,z,\n';
    const report = await load(csv, 'data.csv', 'csv');
    const id = report.dataset!.id;
    expect((await datasets.get(id)).labelled).toEqual({ late: 2 });
    await datasets.updateExpected(id, 2, { late: true }, QUESTIONS);
    expect((await datasets.list()).find((d) => d.id === id)!.labelled).toEqual({ late: 3 });
    // Another process clears an answer (here a second connection to the same file).
    const other = Store.open(join(dir.path, 'verdict.sqlite'));
    try {
      other.run("UPDATE dataset_items SET expected = '{}' WHERE dataset_id = ? AND position = 0", [id]);
    } finally {
      other.close();
    }
    expect((await datasets.get(id)).labelled).toEqual({ late: 2 });
  });

  it('imports JSONL and a JSON array streamed in small pieces', async () => {
    const items = Array.from({ length: 50 }, (_, i) => ({ id: `i${i}`, state: { text: `a "quoted" [${i}] {x}` }, expected: { late: i % 2 === 0 } }));
    const jsonl = await load(items.map((x) => JSON.stringify(x)).join('\n'), 'd.jsonl', 'jsonl');
    expect(jsonl.imported).toBe(50);
    const text = JSON.stringify(items, null, 2);
    const pieces = text.match(/[\s\S]{1,7}/g)!;
    const array = await datasets.import({ name: 'arr', rows: readRows(Readable.from(pieces), 'd.json', 'json'), questions: QUESTIONS });
    expect(array.problems).toEqual([]);
    expect((await datasets.items(array.dataset!.id, { offset: 49, limit: 1 })).items[0]!.state).toEqual(items[49]!.state);
  });

  const bad: [string, string, string, DatasetFormat, { row: number; field: string; message: RegExp }][] = [
    ['a CSV with a missing column', 'id,expected.late\na,true\n', 'd.csv', 'csv', { row: 1, field: 'state', message: /missing column "state"/ }],
    ['a JSONL line that is not JSON', '{"id":"a","state":"x"}\n{"id":"b",\n', 'd.jsonl', 'jsonl', { row: 2, field: '(line)', message: /not valid JSON/ }],
    [
      'an option the question does not have',
      'id,state,expected.mood\na,x,happy\nb,y,angry\n',
      'd.csv',
      'csv',
      { row: 3, field: 'expected.mood', message: /"angry" is not an option/ },
    ],
    [
      'a score level out of range',
      '{"id":"a","state":"x","expected":{"stars":3}}\n',
      'd.jsonl',
      'jsonl',
      { row: 1, field: 'expected.stars', message: /out of range.*0 to 2/ },
    ],
    [
      'a box with top > bottom',
      '[{"id":"a","state":"x","expected":{"where":{"top":0.8,"bottom":0.2,"left":0,"right":1}}}]',
      'd.json',
      'json',
      { row: 1, field: 'expected.where', message: /top \(0.8\) must be less than bottom/ },
    ],
    [
      'an unknown question name',
      '{"id":"a","state":"x","expected":{"lateness":true}}\n',
      'd.jsonl',
      'jsonl',
      { row: 1, field: 'expected.lateness', message: /unknown question "lateness"/ },
    ],
  ];
  for (const [what, text, file, format, problem] of bad) {
    it(`refuses ${what}, naming file, row and field, and imports nothing`, async () => {
      const report = await load(text, file, format);
      expect(report.dataset).toBeNull();
      expect(report.problems[0]).toMatchObject({ file, row: problem.row, field: problem.field });
      expect(report.problems[0]!.message).toMatch(problem.message);
      expect(count()).toBe(0);
      expect(await datasets.list()).toEqual([]);
    });
  }

  it('keeps only the valid rows when asked, with a report', async () => {
    const report = await load('id,state,expected.mood\na,x,happy\nb,y,angry\nc,z,sad\n', 'd.csv', 'csv', true);
    expect(report.imported).toBe(2);
    expect(report.skipped).toBe(1);
    expect(report.problems).toHaveLength(1);
    expect((await datasets.items(report.dataset!.id, { offset: 0, limit: 10 })).items.map((i) => i.id)).toEqual(['a', 'c']);
  });

  it('refuses duplicate ids, naming the row of the first', async () => {
    const report = await load('id,state\na,x\na,y\n', 'd.csv', 'csv');
    expect(report.problems[0]).toMatchObject({ row: 3, field: 'id', message: 'id "a" appears twice (first at row 2)' });
  });

  it("reports a CSV row with a missing cell as that row's problem and goes on checking the rows after it", async () => {
    const csv = 'id,state,expected.late,expected.mood\na,x,true,happy\nb,y,false\nc,z,maybe,happy\nd,w,true,happy\na,v,true,sad\n';
    const report = await load(csv, 'd.csv', 'csv');
    expect(report.dataset).toBeNull();
    expect(report.problems.map((p) => [p.row, p.field])).toEqual([
      [3, 'expected.mood'],
      [4, 'expected.late'],
      [6, 'id'],
    ]);
    expect(report.problems[0]!.message).toBe('has 3 cells, the header has 4: no value for "expected.mood"');
    // Only the valid rows, when asked: the rows before and after the short one are kept.
    const kept = await load(csv, 'd.csv', 'csv', true);
    expect(kept.imported).toBe(2);
    expect((await datasets.items(kept.dataset!.id, { offset: 0, limit: 10 })).items.map((i) => i.id)).toEqual(['a', 'd']);
  });

  it('makes no dataset of a file with no items, in any format, and says so', async () => {
    for (const [text, file, format, message] of [
      ['', 'empty.csv', 'csv', 'no items: it is empty or has only its header'],
      ['id,state,expected.mood\n', 'header.csv', 'csv', 'no items: it is empty or has only its header'],
      ['\n\n', 'blank.jsonl', 'jsonl', 'no items: it is empty or has only blank lines'],
      ['[ ]', 'none.json', 'json', 'no items: its array is empty'],
      ['', 'empty.json', 'json', 'the file is empty'],
    ] as const) {
      for (const validOnly of [false, true]) {
        const report = await load(text, file, format, validOnly);
        expect(report, file).toMatchObject({ dataset: null, imported: 0, problems: [{ file, row: 1, field: '(file)', message }] });
      }
    }
    expect(await datasets.list()).toEqual([]);
  });

  it('makes no empty dataset when only the valid rows were asked for and none is valid', async () => {
    const report = await load('id,state,expected.mood\na,x,angry\n', 'd.csv', 'csv', true);
    expect(report).toMatchObject({ dataset: null, imported: 0, skipped: 1 });
    expect(await datasets.list()).toEqual([]);
  });

  it('edits expected answers with the same checks, deletes, and exports CSV and JSONL', async () => {
    const report = await load('id,state,expected.late\na,"x, y",true\nb,y,\n', 'd.csv', 'csv');
    const id = report.dataset!.id;
    await expect(datasets.updateExpected(id, 1, { stars: 9 }, QUESTIONS)).rejects.toThrow(/expected.stars: score level 9/);
    await datasets.updateExpected(id, 1, { late: false, stars: 1 }, QUESTIONS);
    let csv = '';
    await datasets.export(id, 'csv', { write: (t: string) => (csv += t) });
    expect(csv).toBe('id,state,expected.late,expected.stars\na,"x, y",true,\nb,y,false,1\n');
    let jsonl = '';
    await datasets.export(id, 'jsonl', { write: (t: string) => (jsonl += t) });
    expect(
      jsonl
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))[1],
    ).toEqual({ id: 'b', state: 'y', expected: { late: false, stars: 1 } });
    const again = await load(csv, 'again.csv', 'csv');
    expect(again.imported).toBe(2);
    await datasets.delete(id);
    expect((await datasets.list()).map((d) => d.id)).toEqual([again.dataset!.id]);
  });

  it('reads a folder of images with a labels CSV beside it', async () => {
    const images = join(dir.path, 'images');
    mkdirSync(images);
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
    writeFileSync(join(images, 'b.png'), png);
    writeFileSync(join(images, 'a.png'), png);
    writeFileSync(join(dir.path, 'labels.csv'), 'id,expected.late\na.png,true\n');
    const { labels } = await readLabels(join(dir.path, 'labels.csv'));
    const report = await datasets.import({ name: 'images', rows: imageFolderRows(images, labels), questions: QUESTIONS });
    const items = (await datasets.items(report.dataset!.id, { offset: 0, limit: 10 })).items;
    expect(items.map((i) => [i.id, i.expected])).toEqual([
      ['a.png', { late: true }],
      ['b.png', {}],
    ]);
    expect(JSON.stringify(items[0]!.state)).toContain('data:image/png;base64,');
  });
});

describe('a cell that is nearly right', () => {
  it('is refused with what it most likely meant', async () => {
    const { checkExpected, booleanMeant, nearestOption } = await import('./dataset-rows');
    const topic = { type: 'choice' as const, instructions: 'Topic?', criteria: { billing: null, bug: null } };
    expect(checkExpected(topic, 'Billing')).toEqual({
      message: '"Billing" is not an option of this question; did you mean "billing"? (options: "billing", "bug")',
    });
    expect(checkExpected({ type: 'noul', instructions: 'Urgent?' }, 'no')).toEqual({
      message: 'expected true or false for a noul question, got "no"; did you mean false?',
    });
    expect(checkExpected({ type: 'noul', instructions: 'Urgent?' }, 'maybe')).toEqual({ message: 'expected true or false for a noul question, got "maybe"' });
    expect([booleanMeant('YES'), booleanMeant(' n '), booleanMeant(1), booleanMeant('FALSE'), booleanMeant('perhaps')]).toEqual([
      true,
      false,
      true,
      false,
      null,
    ]);
    expect(nearestOption(' feature_request ', ['feature request', 'bug'])).toBe('feature request');
    expect(nearestOption('invoice', ['billing'])).toBeNull();
  });
});

describe('taking the suggestions', () => {
  const CSV = 'id,state,expected.late,expected.mood,expected.stars\nt1,Late again,no,Happy,1\nt2,On time,yes,sad ,9\nt3,Fine,true,happy,0\n';
  const read = (takeSuggestions: boolean) =>
    datasets.import({ name: 'tickets.csv', rows: readRows(Readable.from([CSV]), 'tickets.csv', 'csv'), questions: QUESTIONS, takeSuggestions });

  it('lists what each nearly right cell most likely meant, and keeps nothing', async () => {
    const report = await read(false);
    expect(report.dataset).toBeNull();
    expect(report.problems.map((p) => [p.row, p.field, p.suggestion])).toEqual([
      [2, 'expected.late', false],
      [2, 'expected.mood', 'happy'],
      [3, 'expected.late', true],
      [3, 'expected.mood', 'sad'],
      [3, 'expected.stars', undefined],
    ]);
  });

  it('reads each of them as suggested in one go, counts them, and still refuses what has no suggestion', async () => {
    const report = await read(true);
    // Row 3's score of 9 has no suggestion: the import stays all-or-nothing.
    expect(report.dataset).toBeNull();
    expect(report.problems.map((p) => [p.row, p.field])).toEqual([[3, 'expected.stars']]);
    const fixed = await datasets.import({
      name: 'tickets.csv',
      rows: readRows(Readable.from([CSV.replace(',9\n', ',2\n')]), 'tickets.csv', 'csv'),
      questions: QUESTIONS,
      takeSuggestions: true,
    });
    expect(fixed).toMatchObject({ imported: 3, skipped: 0, problems: [], taken: 4 });
    const items = (await datasets.items(fixed.dataset!.id, { offset: 0, limit: 10 })).items;
    expect(items.map((i) => i.expected)).toEqual([
      { late: false, mood: 'happy', stars: 1 },
      { late: true, mood: 'sad', stars: 2 },
      { late: true, mood: 'happy', stars: 0 },
    ]);
  });
});
