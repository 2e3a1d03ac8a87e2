/**
 * Streaming readers of dataset files: each yields one raw row at a time, so a 200 MB file is never
 * in memory at once. CSV goes through csv-parse; JSONL line by line; a JSON array element by element.
 */
import { createReadStream, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import type { RawRow } from './dataset-rows';

export type DatasetFormat = 'csv' | 'jsonl' | 'json';

export function formatOf(path: string): DatasetFormat | null {
  const ext = extname(path).toLowerCase();
  return ext === '.csv' ? 'csv' : ext === '.jsonl' || ext === '.ndjson' ? 'jsonl' : ext === '.json' ? 'json' : null;
}

export function readRows(input: Readable, file: string, format: DatasetFormat, options: { needsState?: boolean } = {}): AsyncGenerator<RawRow> {
  const rows = format === 'csv' ? csvRows(input, file, options.needsState ?? true) : format === 'jsonl' ? jsonlRows(input, file) : jsonArrayRows(input, file);
  return atLeastOne(rows, file, format);
}

/** A file with no items is a mistake (the wrong file, a cut-off export), not a dataset of none. */
async function* atLeastOne(rows: AsyncGenerator<RawRow>, file: string, format: DatasetFormat): AsyncGenerator<RawRow> {
  let any = false;
  for await (const row of rows) {
    any = true;
    yield row;
  }
  const what = format === 'csv' ? 'it is empty or has only its header' : format === 'jsonl' ? 'it is empty or has only blank lines' : 'its array is empty';
  if (!any) yield { file, row: 1, problem: { field: '(file)', message: `no items: ${what}` } };
}

export function fileRows(path: string): AsyncGenerator<RawRow> {
  const format = formatOf(path);
  if (!format) throw new Error(`${basename(path)}: expected a .csv, .jsonl or .json file`);
  return readRows(createReadStream(path), basename(path), format);
}

function fromObject(value: unknown, file: string, row: number): RawRow {
  if (!value || typeof value !== 'object' || Array.isArray(value))
    return { file, row, problem: { field: '(row)', message: 'expected an object {id, state, expected}' } };
  const o = value as Record<string, unknown>;
  const unknown = Object.keys(o).filter((k) => k !== 'id' && k !== 'state' && k !== 'expected');
  if (unknown.length) return { file, row, problem: { field: unknown[0]!, message: `unknown field "${unknown[0]}" (an item has id, state and expected)` } };
  return { file, row, id: o['id'], state: o['state'], expected: o['expected'] };
}

async function* jsonlRows(input: Readable, file: string): AsyncGenerator<RawRow> {
  const lines = createInterface({ input, crlfDelay: Infinity });
  let row = 0;
  for await (const line of lines) {
    row += 1;
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      yield { file, row, problem: { field: '(line)', message: `not valid JSON: ${(error as Error).message}` } };
      continue;
    }
    yield fromObject(value, file, row);
  }
}

async function* csvRows(input: Readable, file: string, needsState = true): AsyncGenerator<RawRow> {
  // csv-parse is loaded with the first CSV file read: a server that is sent none never holds it.
  const { parse } = await import('csv-parse');
  const parser = input.pipe(parse({ bom: true, relax_quotes: false, skip_empty_lines: true, relax_column_count: true }));
  let header: string[] | null = null;
  let row = 0;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      row += 1;
      if (!header) {
        header = record.map((h) => h.trim());
        for (const required of needsState ? ['id', 'state'] : ['id']) {
          if (!header.includes(required)) {
            yield { file, row: 1, problem: { field: required, message: `missing column "${required}" (columns: ${header.join(', ')})` } };
            return;
          }
        }
        const odd = header.find((h) => h !== 'id' && h !== 'state' && !h.startsWith('expected.'));
        if (odd !== undefined) {
          yield { file, row: 1, problem: { field: odd, message: `unknown column "${odd}" (expected id, state and expected.<question name>)` } };
          return;
        }
        continue;
      }
      // A short or long row is that row's problem; the rows after it are still read and checked.
      if (record.length !== header.length) {
        const missing = header.slice(record.length);
        const field = missing[0] ?? '(row)';
        const message = missing.length
          ? `has ${record.length} cells, the header has ${header.length}: no value for ${missing.map((m) => `"${m}"`).join(', ')}`
          : `has ${record.length} cells, the header has ${header.length} (${header.join(', ')}); a cell with a comma needs quotes`;
        yield { file, row, problem: { field, message } };
        continue;
      }
      const cells = Object.fromEntries(header.map((h, i) => [h, record[i] ?? '']));
      const expectedColumns = Object.fromEntries(header.filter((h) => h.startsWith('expected.')).map((h) => [h.slice('expected.'.length), cells[h]!]));
      yield { file, row, id: cells['id'], state: cells['state'], expectedColumns };
    }
  } catch (error) {
    const e = error as Error & { lines?: number; code?: string };
    yield { file, row: e.lines ?? row + 1, problem: { field: '(row)', message: `not valid CSV: ${e.message}` } };
  }
}

/** Splits a top-level JSON array into element texts as bytes arrive; each element is parsed alone. */
async function* jsonArrayRows(input: Readable, file: string): AsyncGenerator<RawRow> {
  let started = false;
  let depth = 0;
  let inString = false;
  let escaped = false;
  let current: string[] = [];
  let segmentStart = -1;
  let row = 0;
  let ended = false;
  const finish = (): RawRow | null => {
    const text = current.join('').trim();
    current = [];
    if (text === '') return null;
    row += 1;
    try {
      return fromObject(JSON.parse(text), file, row);
    } catch (error) {
      return { file, row, problem: { field: `[${row - 1}]`, message: `not valid JSON: ${(error as Error).message}` } };
    }
  };
  input.setEncoding('utf8');
  for await (const chunk of input as AsyncIterable<string>) {
    const out: RawRow[] = [];
    segmentStart = started && !ended ? 0 : -1;
    for (let i = 0; i < chunk.length; i += 1) {
      const ch = chunk[i]!;
      if (ended) {
        if (!/\s/.test(ch)) {
          yield { file, row: row + 1, problem: { field: '(file)', message: 'text after the end of the JSON array' } };
          return;
        }
        continue;
      }
      if (!started) {
        if (/\s/.test(ch) || ch === '\ufeff') continue;
        if (ch !== '[') {
          yield { file, row: 1, problem: { field: '(file)', message: 'expected a JSON array of items' } };
          return;
        }
        started = true;
        segmentStart = i + 1;
        continue;
      }
      if (inString) {
        if (escaped) escaped = false;
        else if (ch === '\\') escaped = true;
        else if (ch === '"') inString = false;
        continue;
      }
      if (ch === '"') inString = true;
      else if (ch === '{' || ch === '[') depth += 1;
      else if (ch === '}' || ch === ']') {
        if (depth === 0) {
          current.push(chunk.slice(segmentStart, i));
          const last = finish();
          if (last) out.push(last);
          ended = true;
          continue;
        }
        depth -= 1;
      } else if (ch === ',' && depth === 0) {
        current.push(chunk.slice(segmentStart, i));
        const done = finish();
        out.push(done ?? { file, row: ++row, problem: { field: `[${row - 1}]`, message: 'empty element' } });
        segmentStart = i + 1;
      }
    }
    if (started && !ended && segmentStart >= 0) current.push(chunk.slice(segmentStart));
    for (const r of out) yield r;
  }
  if (!ended) yield { file, row: row + 1, problem: { field: '(file)', message: started ? 'the JSON array is not closed' : 'the file is empty' } };
}

/** An image's expected answers come from its labels row, so a problem with them names that file and row. */
function labelled(image: string, row: number, label: RawRow | undefined): Pick<RawRow, 'file' | 'row' | 'expected' | 'expectedColumns'> {
  if (!label) return { file: image, row };
  return { file: label.file, row: label.row, ...(label.expectedColumns ? { expectedColumns: label.expectedColumns } : { expected: label.expected }) };
}

const IMAGE_TYPES: Record<string, string> = { '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif', '.webp': 'image/webp' };

/**
 * A folder of images, one item each (id = file name), with expected answers from an optional
 * labels file (CSV or JSONL with `id` and expected answers; its `state` is ignored).
 */
export async function* imageFolderRows(dir: string, labels?: Map<string, RawRow>): AsyncGenerator<RawRow> {
  const files = readdirSync(dir)
    .filter((f) => IMAGE_TYPES[extname(f).toLowerCase()] && statSync(join(dir, f)).isFile())
    .sort();
  let row = 0;
  for (const f of files) {
    row += 1;
    const data = readFileSync(join(dir, f)).toString('base64');
    const state = [{ type: 'image_url', image_url: { url: `data:${IMAGE_TYPES[extname(f).toLowerCase()]};base64,${data}` } }];
    const label = labels?.get(f) ?? labels?.get(basename(f, extname(f)));
    yield { ...labelled(f, row, label), id: f, state };
  }
}

/** Images sent by the UI (name and data: URL), one item each, with labels by file name. */
export async function* imageFolderRowsFrom(images: readonly { name: string; data_url: string }[], labels: Map<string, RawRow>): AsyncGenerator<RawRow> {
  let row = 0;
  for (const image of images) {
    row += 1;
    const label = labels.get(image.name) ?? labels.get(basename(image.name, extname(image.name)));
    const state = [{ type: 'image_url', image_url: { url: image.data_url } }];
    yield { ...labelled(image.name, row, label), id: image.name, state };
  }
}

/** Reads a labels file into a map by id (labels are small: one line per image); a labels CSV needs no state column. */
export async function readLabels(path: string): Promise<{ labels: Map<string, RawRow>; problems: RawRow[] }> {
  const labels = new Map<string, RawRow>();
  const problems: RawRow[] = [];
  const format = formatOf(path);
  if (!format) throw new Error(`${basename(path)}: expected a .csv, .jsonl or .json labels file`);
  const rows = format === 'csv' ? csvRows(createReadStream(path), basename(path), false) : fileRows(path);
  for await (const r of rows) {
    if (r.problem) problems.push(r);
    else labels.set(String(r.id), r);
  }
  return { labels, problems };
}
